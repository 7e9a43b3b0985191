import { describe, expect, test } from "bun:test";
import { readFile, readdir } from "node:fs/promises";
import { join } from "node:path";
import { adminApp, call } from "../../helpers/admin";
import type { TestApp } from "../../helpers/app";
import { CaptureStore } from "../../../src/store/captures";
import { scratchDir } from "../../helpers/scratch";

function capture(t: TestApp, chain: string, round: number, body: string) {
  return t.built.ctx.captures.record({
    label: round === 0 ? "completion" : "continue",
    chain_key: chain,
    round,
    method: "POST",
    path: "/api/v0/chat/completion?x=1",
    account_id: "a@x.com",
    status_code: 200,
    duration_ms: 5,
    request_body: JSON.stringify({ prompt: `ask ${body}` }),
    response_body: `data: {"v":"${body}"}\n\n`,
  })!;
}

async function withDataDir(t: TestApp) {
  t.built.ctx.dataDir = scratchDir("svc-samples-");
  return t.built.ctx.dataDir;
}

describe("/admin/dev/captures (D13.1, D13.2)", () => {
  test("lists settings and items newest first; DELETE clears", async () => {
    const t = await adminApp();
    capture(t, "req_1", 0, "alpha");
    capture(t, "req_2", 0, "beta");
    const r = await call(t, "GET", "/admin/dev/captures");
    expect(r.body).toMatchObject({ enabled: true, limit: 20, max_body_bytes: 5 * 1024 * 1024, count: 2 });
    expect(r.body.items[0]).toMatchObject({ chain_key: "req_2", path: "/api/v0/chat/completion", label: "completion", response_truncated: false });
    expect(r.body.items[0].id).toMatch(/^cap_[0-9a-f]{24}$/);
    const d = await call(t, "DELETE", "/admin/dev/captures");
    expect(d.body).toMatchObject({ success: true });
    expect(d.body.detail).toContain("cleared");
    expect((await call(t, "GET", "/admin/dev/captures")).body.count).toBe(0);
  });
});

describe("/admin/dev/raw-samples (D13.3–D13.5)", () => {
  test("query groups rounds by chain and filters fuzzily", async () => {
    const t = await adminApp();
    const c0 = capture(t, "req_a", 0, "Hello World");
    const c1 = capture(t, "req_a", 1, "more");
    capture(t, "req_b", 0, "other");
    const all = await call(t, "GET", "/admin/dev/raw-samples/query");
    expect(all.body).toMatchObject({ query: "", limit: 20, count: 2 });
    const hit = await call(t, "GET", "/admin/dev/raw-samples/query?q=world%20HELLO&limit=5");
    expect(hit.body.count).toBe(1);
    expect(hit.body.items[0]).toEqual({
      chain_key: "req_a",
      capture_ids: [c0.id, c1.id],
      round_count: 2,
      initial_label: "completion",
      request_preview: c0.request_body.slice(0, 160),
      response_preview: c0.response_body.slice(0, 160),
    });
    expect((await call(t, "GET", "/admin/dev/raw-samples/query?limit=abc")).status).toBe(400);
  });

  test("save writes upstream.stream.sse and meta.json; a taken id gets -2", async () => {
    const t = await adminApp();
    const dir = await withDataDir(t);
    const c0 = capture(t, "req_a", 0, "one");
    const c1 = capture(t, "req_a", 1, "two");
    const r = await call(t, "POST", "/admin/dev/raw-samples/save", { capture_id: c1.id, sample_id: "my-sample" });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ success: true, sample_id: "my-sample", chain_key: "req_a", capture_ids: [c0.id, c1.id], round_count: 2, dir: join(dir, "raw-samples", "my-sample") });
    expect(await readFile(r.body.upstream_path, "utf8")).toBe(c0.response_body + c1.response_body);
    const meta = JSON.parse(await readFile(r.body.meta_path, "utf8"));
    expect(meta).toMatchObject({ sample_id: "my-sample", round_count: 2, labels: ["completion", "continue"], account_id: "a@x.com", upstream_status: 200, truncated: false });
    const again = await call(t, "POST", "/admin/dev/raw-samples/save", { chain_key: "req_a", sample_id: "my-sample" });
    expect(again.body.sample_id).toBe("my-sample-2");
    const byQuery = await call(t, "POST", "/admin/dev/raw-samples/save", { query: "two" });
    expect(byQuery.body.sample_id).toMatch(/^sample-\d{8}-\d{6}-[0-9a-f]{6}$/);
    expect((await call(t, "POST", "/admin/dev/raw-samples/save", { chain_key: "nope" })).status).toBe(404);
    expect((await call(t, "POST", "/admin/dev/raw-samples/save", {})).status).toBe(400);
  });

  test("sample ids that could escape the folder are rejected and nothing is written", async () => {
    const t = await adminApp();
    const dir = await withDataDir(t);
    capture(t, "req_a", 0, "x");
    for (const sample_id of ["..", ".", "../evil", "a/b", "a\\b", "/abs", "x".repeat(65), "sp ace", "%2e%2e", "ünï", 5]) {
      const r = await call(t, "POST", "/admin/dev/raw-samples/save", { chain_key: "req_a", sample_id });
      expect(r.status).toBe(400);
      expect(typeof r.body.detail).toBe("string");
    }
    expect(await readdir(dir)).toEqual([]);
  });
});

describe("captures store limits (D13.1, D13.2)", () => {
  test("oldest dropped beyond the limit; bodies truncated on a UTF-8 boundary with the full size kept", () => {
    const s = new CaptureStore({ enabled: true, limit: 2, max_body_bytes: 1024 });
    const base = { label: "completion" as const, round: 0, method: "POST", path: "/p", account_id: "", status_code: 200, duration_ms: 1, request_body: "" };
    s.record({ ...base, chain_key: "1", response_body: "a" });
    s.record({ ...base, chain_key: "2", response_body: "b" });
    const big = "é".repeat(600); // 1200 bytes
    const item = s.record({ ...base, chain_key: "3", response_body: big })!;
    expect(s.list().map((i) => i.chain_key)).toEqual(["3", "2"]);
    expect(item.response_truncated).toBe(true);
    expect(item.response_bytes).toBe(1200);
    expect(item.response_body).toBe("é".repeat(512));
  });

  test("a body handed over as the chunks read is decoded when the item is read, as the text would have been", () => {
    const s = new CaptureStore({ enabled: true, limit: 5, max_body_bytes: 1024 });
    const base = { label: "completion" as const, round: 0, method: "POST", path: "/p", account_id: "", status_code: 200, duration_ms: 1, request_body: "{}" };
    const bytes = new TextEncoder().encode('data: {"v":"é"}\n\n'.repeat(80)); // 1,440 bytes
    // A chunk boundary inside a two-byte character.
    const cut = bytes.indexOf(0xc3) + 1;
    const item = s.record({ ...base, chain_key: "raw", response_chunks: [bytes.subarray(0, cut), bytes.subarray(cut)], response_bytes: bytes.byteLength })!;
    const plain = s.record({ ...base, chain_key: "text", response_body: new TextDecoder().decode(bytes) })!;
    expect(item.response_body).toBe(plain.response_body);
    expect(item.response_truncated).toBe(true);
    expect(item.response_bytes).toBe(1440);
    // What the admin API answers: the getters read like plain fields in JSON.
    expect(JSON.parse(JSON.stringify(item))).toMatchObject({ response_body: plain.response_body, response_truncated: true, response_bytes: 1440 });
    expect({ ...item }.response_body).toBe(plain.response_body);
  });

  test("off records nothing unless the chain is forced", () => {
    const s = new CaptureStore({ enabled: false, limit: 5, max_body_bytes: 1024 });
    const input = { label: "completion" as const, chain_key: "c", round: 0, method: "POST", path: "/p", account_id: "", status_code: 200, duration_ms: 1, request_body: "", response_body: "" };
    expect(s.record(input)).toBeNull();
    const undo = s.force("c");
    expect(s.record(input)).not.toBeNull();
    undo();
    expect(s.record(input)).toBeNull();
  });
});
