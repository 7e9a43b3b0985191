// The simulator's JSON answers hold the shapes of vectors/api-envelopes.json (core-upstream §4, §5):
// every key of a vector example is present with a value of the same JSON type (placeholders stand for
// strings; numbers and `null` example values only fix the type), so the gateway's client reads the
// simulator exactly where it reads core. Values that the vectors fix literally (the biz_code 9 and busy
// bodies) are compared whole.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { CoreSimulator } from "../../src/sim/index";
import { RawCore, startTestSimulator, TEST_ACCOUNTS } from "../helpers/sim";
import { loadVectors } from "../helpers/vectors";

const vectors = loadVectors<{ endpoints: Record<string, any>[] }>("api-envelopes.json");
const endpoint = (name: string) => vectors.endpoints.find((e) => e.name === name)!;

/** Paths where `actual` lacks a key of `expected` or has another JSON type; arrays are checked by their first element. */
function shapeGaps(expected: unknown, actual: unknown, at = "$"): string[] {
  const kind = (v: unknown) => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v);
  // A null example (token_usage while pending, error_code…) says only "this key exists".
  if (expected === null) return [];
  if (kind(expected) !== kind(actual)) return [`${at}: ${kind(expected)} expected, got ${kind(actual)}`];
  if (Array.isArray(expected)) return expected.length ? shapeGaps(expected[0], (actual as unknown[])[0], `${at}[0]`) : [];
  if (kind(expected) !== "object") return [];
  const a = actual as Record<string, unknown>;
  return Object.entries(expected as Record<string, unknown>).flatMap(([k, v]) => (k in a ? shapeGaps(v, a[k], `${at}.${k}`) : [`${at}.${k}: missing`]));
}

let sim: CoreSimulator;
let c: RawCore;
beforeAll(async () => {
  sim = await startTestSimulator({ filePolls: 1 });
  c = new RawCore(sim.url);
});
afterAll(() => sim.stop());

describe("api-envelopes.json shapes", () => {
  test("login (email and mobile forms), session create (both variants), fetch_page, delete, delete_all", async () => {
    const login = endpoint("login");
    expect(shapeGaps(login.success_response, await c.login({ email: TEST_ACCOUNTS[0]!.email, password: "pw", device_id: "d", os: "android" }))).toEqual([]);
    const mobile = new RawCore(sim.url);
    expect(shapeGaps(login.success_response, await mobile.login({ mobile: "13800138000", area_code: null, password: "pw2", device_id: "d", os: "android" }))).toEqual([]);

    const [idShape, nested] = endpoint("create chat session").success_response_variants;
    const first = await (await c.call("/api/v0/chat_session/create", { agent: "chat" })).json();
    const second = await (await c.call("/api/v0/chat_session/create", { agent: "chat" })).json();
    expect(shapeGaps(idShape, first)).toEqual([]);
    expect(shapeGaps(nested, second)).toEqual([]);
    expect(second.data.biz_data.chat_session.model_type).toBe("default");

    const page = await (await c.call("/api/v0/chat_session/fetch_page?lte_cursor.pinned=false")).json();
    expect(shapeGaps(endpoint("list chat sessions (first page)").success_response, page)).toEqual([]);
    expect(page.data.biz_data.chat_sessions.map((s: any) => s.id)).toEqual([second.data.biz_data.chat_session.id, first.data.biz_data.id]);

    const del = await (await c.call("/api/v0/chat_session/delete", { chat_session_id: first.data.biz_data.id })).json();
    expect(shapeGaps(endpoint("delete chat session").minimal_success_shape_checked, del)).toEqual([]);
    const all = await (await c.call("/api/v0/chat_session/delete_all", {})).json();
    expect(shapeGaps(endpoint("delete all chat sessions").minimal_success_shape_checked, all)).toEqual([]);
  });

  test("PoW challenge for both targets", async () => {
    const ep = endpoint("create PoW challenge");
    for (const body of [ep.request, ep.request_for_upload]) {
      const j = await (await c.call("/api/v0/chat/create_pow_challenge", body)).json();
      expect(shapeGaps(ep.success_response, j)).toEqual([]);
      expect(j.data.biz_data.challenge.target_path).toBe(body.target_path);
      expect(j.data.biz_data.challenge.challenge).toMatch(/^[0-9a-f]{64}$/);
    }
  });

  test("upload replies and fetch_files polls hold the observed file objects", async () => {
    const [pending, ready] = endpoint("upload file").observed_responses;
    const up = await (await c.upload("HISTORY.txt", "x".repeat(732))).json();
    expect(shapeGaps(pending, up)).toEqual([]);
    expect(up.data.biz_data.status).toBe("PENDING");
    const polled = await c.fetchFiles(up.data.biz_data.id);
    expect(shapeGaps(endpoint("fetch file status").assumed_response_shape_unverified, polled)).toEqual([]);
    expect(shapeGaps(ready.data.biz_data, polled.data.biz_data.files[0])).toEqual([]);
    expect(polled.data.biz_data.files[0].status).toBe("SUCCESS");
  });

  test("the two non-SSE HTTP 200 bodies of a completion are byte-for-byte the vectors' ones", async () => {
    const [invalidRef, busy] = endpoint("completion (streaming)").non_sse_bodies_seen_with_http_200;
    const s = await c.session();
    const foreign = await c.completion(s, "hi", { refFileIds: ["file-00000000-0000-0000-0000-000000000000"] });
    expect(foreign.status).toBe(200);
    expect(await foreign.json()).toEqual(invalidRef);
    sim.enqueue({ scenario: "error-busy-json" });
    const b = await c.completion(s, "hi");
    expect(b.status).toBe(200);
    expect(await b.json()).toEqual(busy);
  });
});
