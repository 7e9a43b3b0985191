// Core's JSON envelope and failure classification (core-upstream §4): accounts.json refresh_decision_vectors,
// api-envelopes.json bodies and stream error lines, and every row of the §4 table.
import { describe, expect, test } from "bun:test";
import { loadVectors } from "../helpers/vectors";
import { classifyFailure, classifyStreamError, envelopeMessage, isEnvelopeSuccess, readEnvelope } from "../../src/core/classify";

const envelopes = loadVectors("api-envelopes.json");

describe("accounts.json refresh_decision_vectors", () => {
  for (const v of loadVectors("accounts.json").refresh_decision_vectors.vectors as any[]) {
    test(`HTTP ${v.http} code ${v.code} biz ${v.biz_code} "${v.msg || v.biz_msg}" → refresh ${v.refresh}`, () => {
      const body = { code: v.code, msg: v.msg, data: { biz_code: v.biz_code, biz_msg: v.biz_msg, biz_data: null } };
      expect(classifyFailure({ httpStatus: v.http, body }) === "upstream_auth").toBe(v.refresh);
      expect(classifyFailure(v.http, body) === "upstream_auth").toBe(v.refresh);
    });
  }
});

describe("api-envelopes.json", () => {
  test("every success response of every endpoint is a success envelope", () => {
    let n = 0;
    for (const ep of envelopes.endpoints as any[]) {
      for (const body of [ep.success_response, ...(ep.success_response_variants ?? []), ...(ep.observed_responses ?? []), ep.minimal_success_shape_checked].filter(Boolean)) {
        expect([ep.name, isEnvelopeSuccess(200, body)]).toEqual([ep.name, true]);
        expect(isEnvelopeSuccess(500, body)).toBe(false);
        n++;
      }
    }
    expect(n).toBeGreaterThan(5);
  });

  test("the HTTP 200 bodies that replace a stream are classified", () => {
    const completion = (envelopes.endpoints as any[]).find((e) => e.name === "completion (streaming)");
    const [invalidRef, busy] = completion.non_sse_bodies_seen_with_http_200;
    expect(isEnvelopeSuccess(200, invalidRef)).toBe(false);
    expect(classifyFailure(200, invalidRef)).toBe("upstream_invalid_ref_file_id");
    expect(envelopeMessage(invalidRef)).toBe("invalid ref file id");
    expect(classifyFailure(200, busy)).toBe("upstream_busy");
    expect(envelopeMessage(busy)).toBe("有消息正在生成，请稍后再试");
  });

  test("the in-stream error lines are classified", () => {
    const hints = envelopes.http_level_error_hints;
    const obj = (line: string) => JSON.parse(line.slice(line.indexOf("{")));
    expect(classifyStreamError(obj(hints.input_too_long_in_stream.line))).toBe("input_exceeds_limit");
    expect(classifyStreamError(obj(hints.still_generating_in_stream.line))).toBe("upstream_busy");
    expect(classifyStreamError({ type: "error", content: "unexpected" })).toBe("upstream_error");
  });
});

describe("§4 envelope and classification rules", () => {
  test("success needs HTTP 200, code 0 and biz_code 0; missing codes count as 0; floats compare numerically", () => {
    expect(isEnvelopeSuccess(200, { data: { biz_data: {} } })).toBe(true);
    expect(isEnvelopeSuccess(200, { code: 0.0, data: { biz_code: 0.0 } })).toBe(true);
    expect(isEnvelopeSuccess(200, { code: 0, data: { biz_code: 1 } })).toBe(false);
    expect(isEnvelopeSuccess(200, readEnvelope({ code: 1 }))).toBe(false);
  });

  test("failure text: biz_msg, else biz_data.msg, else msg", () => {
    expect(envelopeMessage({ msg: "m", data: { biz_msg: "b", biz_data: { msg: "d" } } })).toBe("b");
    expect(envelopeMessage({ msg: "m", data: { biz_msg: "", biz_data: { msg: "d" } } })).toBe("d");
    expect(envelopeMessage(readEnvelope({ msg: "m" }))).toBe("m");
  });

  const rows: [string, number, unknown, string][] = [
    ["pow in the message", 200, { code: 1, msg: "PoW check failed" }, "upstream_pow_failed"],
    ["pow but HTTP 401 is auth", 401, { msg: "pow" }, "upstream_auth"],
    ["pow but code 40002 is auth", 200, { code: 40002, msg: "pow" }, "upstream_auth"],
    ["HTTP 403", 403, null, "upstream_auth"],
    ["biz_code 40001", 200, { code: 0, data: { biz_code: 40001 } }, "upstream_auth"],
    ["float code 40003.0", 200, { code: 40003.0 }, "upstream_auth"],
    ["'invalid jwt' on a 500", 500, { msg: "Invalid JWT" }, "upstream_auth"],
    ["'login required'", 500, { msg: "login required" }, "upstream_auth"],
    ["biz failure 未登录", 200, { code: 0, data: { biz_code: 7, biz_msg: "用户未登录" } }, "upstream_auth"],
    ["biz failure 'credential'", 200, { code: 0, data: { biz_code: 7, biz_msg: "bad credential" } }, "upstream_auth"],
    ["'login' outside a biz failure is not auth", 500, { msg: "login service down" }, "upstream_error"],
    ["busy", 200, { msg: "有消息正在生成，请稍后再试" }, "upstream_busy"],
    ["biz_code 9", 200, { code: 0, data: { biz_code: 9, biz_msg: "x" } }, "upstream_invalid_ref_file_id"],
    ["invalid ref file id (case-insensitive)", 400, { msg: "Invalid Ref File ID" }, "upstream_invalid_ref_file_id"],
    ["HTTP 429", 429, { msg: "slow down" }, "upstream_rate_limited"],
    ["quota reached", 200, { code: 0, data: { biz_code: 400123, biz_msg: "session create failed: quota reached" } }, "upstream_error"],
    ["HTTP 502 without a body", 502, null, "upstream_error"],
  ];
  for (const [name, status, body, kind] of rows) test(`${name} → ${kind}`, () => expect<string>(classifyFailure({ httpStatus: status, body })).toBe(kind));
});
