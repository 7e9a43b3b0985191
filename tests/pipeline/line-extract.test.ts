// The fallback line extractor (core-upstream §7.15) on every sse-line-parse.json vector, plus the rules the
// vectors leave out.
import { describe, expect, test } from "bun:test";
import { loadVectors } from "../helpers/vectors";
import { extractLine, extractRawLine } from "../../src/pipeline/line-extract";

describe("sse-line-parse.json", () => {
  for (const v of loadVectors("sse-line-parse.json").vectors as any[]) {
    test(v.id, () => {
      const r = extractLine(v.line, v.thinking_enabled, v.current_type);
      const e = v.expect;
      expect(r.parsed).toBe(e.parsed);
      expect(r.stop).toBe(e.stop);
      expect(r.contentFilter).toBe(e.content_filter);
      if (e.error === "non-empty") expect(r.error.length).toBeGreaterThan(0);
      else expect(r.error).toBe(e.error);
      expect(r.parts).toEqual(e.parts);
      expect(r.nextType).toBe(e.next_type);
      if ("response_message_id" in e) expect(r.responseMessageId).toBe(e.response_message_id);
      if ("error_code" in e) expect(r.errorCode).toBe(e.error_code);
    });
  }
});

describe("line extractor rules beyond the vectors", () => {
  test("a bare JSON failure envelope stops with its message and §4 kind; a success envelope is not parsed", () => {
    const ref = extractRawLine('{"code":0,"msg":"","data":{"biz_code":9,"biz_msg":"invalid ref file id","biz_data":null}}', false, "text");
    expect([ref.parsed, ref.stop, ref.error, ref.errorCode]).toEqual([true, true, "invalid ref file id", "upstream_invalid_ref_file_id"]);
    const busy = extractRawLine('{"msg":"有消息正在生成，请稍后再试"}', false, "text");
    expect([busy.stop, busy.errorCode]).toEqual([true, "upstream_busy"]);
    const nested = extractRawLine('{"code":0,"data":{"biz_code":3,"biz_msg":"","biz_data":{"msg":"from biz_data"}}}', false, "text");
    expect(nested.error).toBe("from biz_data");
    expect(extractRawLine('{"code":0,"msg":"","data":{"biz_code":0}}', false, "text").parsed).toBe(false);
  });

  test('an explicit empty "p" with FINISHED stops; an explicit empty "p" with other text is a part', () => {
    expect(extractRawLine('data: {"p":"","v":"FINISHED"}', false, "text").stop).toBe(true);
    expect(extractRawLine('data: {"v":"FINISHED"}', false, "text").parts).toEqual([{ text: "FINISHED", type: "text" }]);
    expect(extractRawLine('data: {"p":"","v":"hi"}', false, "text").parts).toEqual([{ text: "hi", type: "text" }]);
  });

  test("the response message id falls back to v.response.message_id, then message.response.message_id", () => {
    expect(extractRawLine('data: {"message":{"response":{"message_id":9}}}', false, "text").responseMessageId).toBe(9);
    expect(extractRawLine('data: {"v":{"response":{"status":"WIP"}},"message":{"response":{"message_id":9}}}', false, "text").responseMessageId).toBe(9);
  });

  test("thinking_content after the answer began is answer text when thinking is on", () => {
    expect(extractRawLine('data: {"p":"response/thinking_content","v":"late"}', true, "text").parts).toEqual([{ text: "late", type: "text" }]);
    expect(extractRawLine('data: {"p":"response/thinking_content","v":"hidden"}', false, "text").parts).toEqual([]);
  });

  test("keepThinking keeps thinking parts with thinking disabled (the stream stage's use)", () => {
    const r = extractRawLine('data: {"p":"response/fragments","o":"APPEND","v":[{"type":"THINK","content":"we"}]}', false, "text", { keepThinking: true });
    expect(r.parts).toEqual([{ text: "we", type: "thinking" }]);
  });

  test("a leaked marker is reported (leaked: true) without being a stop", () => {
    const r = extractRawLine('data: {"p":"response/content","v":"ok CONTENT_FILTERx"}', false, "text");
    expect([r.parts, r.leaked, r.stop]).toEqual([[{ text: "ok", type: "text" }], true, false]);
  });

  test("a walked array keeps parts in order and stops on a nested FINISHED", () => {
    const r = extractRawLine('data: {"p":"response","o":"BATCH","v":[{"p":"fragments/-1/content","v":"a"},{"p":"status","v":"FINISHED"},{"p":"x/content","v":"b"}]}', false, "text");
    expect([r.parts, r.stop]).toEqual([[{ text: "a", type: "text" }, { text: "b", type: "text" }], true]);
  });

  test("parsed payload objects are accepted as well as raw lines", () => {
    expect(extractLine({ v: "x" }, false, "text").parts).toEqual([{ text: "x", type: "text" }]);
  });
});
