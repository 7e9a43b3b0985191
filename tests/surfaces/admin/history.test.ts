import { describe, expect, test } from "bun:test";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { adminApp, call } from "../../helpers/admin";
import { ChatHistoryStore } from "../../../src/store/chat-history";
import type { TestApp } from "../../helpers/app";
import { effectiveChatHistory } from "../../../src/config/effective";
import { scratchDir } from "../../helpers/scratch";

async function withStore(t: TestApp, dir: string | null) {
  t.built.ctx.chatHistory = await ChatHistoryStore.open({
    path: dir ? ChatHistoryStore.pathIn(dir) : null,
    limit: () => effectiveChatHistory(t.built.ctx.config.get()).limit,
  });
  return t.built.ctx.chatHistory;
}

function record(store: ChatHistoryStore, text: string) {
  const id = store.start({ surface: "chat", model: "gpt-4o", resolved_model: "core-v4-flash", stream: true, caller_id: "caller:1", user_input: `question ${text}`, final_prompt: "prompt" })!;
  store.append(id, { reasoning: "hmm", content: text });
  store.finish(id, { status: "success", status_code: 200, finish_reason: "stop", usage: { input_tokens: 3, output_tokens: 4 } });
  return id;
}

describe("/admin/chat-history (D12.3–D12.6)", () => {
  test("list is newest first with summaries; detail has the full entry; both carry weak ETags and answer 304", async () => {
    const t = await adminApp();
    const store = await withStore(t, null);
    const first = record(store, "one");
    await Bun.sleep(2);
    const second = record(store, "two");
    const list = await call(t, "GET", "/admin/chat-history");
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ version: 1, limit: 20, total: 2, persisted: false, revision: store.revision });
    expect(list.body.items.map((i: any) => i.id)).toEqual([second, first]);
    expect(list.body.items[0]).toMatchObject({ status: "success", preview: "two", user_input_preview: "question two", usage: { input_tokens: 3, output_tokens: 4, reasoning_tokens: 0 } });
    expect(list.body.items[0].content).toBeUndefined();
    const etag = list.headers.get("etag")!;
    expect(etag).toBe(`W/"history-${store.revision}"`);
    const cached = await call(t, "GET", "/admin/chat-history", undefined, { "If-None-Match": etag });
    expect(cached.status).toBe(304);
    expect(cached.text).toBe("");
    expect(cached.headers.get("etag")).toBe(etag);

    const detail = await call(t, "GET", `/admin/chat-history/${first}`);
    expect(detail.body.item).toMatchObject({ id: first, content: "one", reasoning: "hmm", final_prompt: "prompt", tool_calls: [], error: null, truncated: false });
    const detailTag = detail.headers.get("etag")!;
    expect(detailTag).toBe(`W/"history-${first}-${detail.body.item.revision}"`);
    expect((await call(t, "GET", `/admin/chat-history/${first}`, undefined, { "If-None-Match": detailTag })).status).toBe(304);

    // Any change moves the list revision, so the old tag no longer matches.
    record(store, "three");
    expect((await call(t, "GET", "/admin/chat-history", undefined, { "If-None-Match": etag })).status).toBe(200);
  });

  test("unknown or malformed ids are 404 with the fixed detail", async () => {
    const t = await adminApp();
    for (const id of ["chat_000000000000000000000000", "nope", "..%2Fetc"]) {
      const r = await call(t, "GET", `/admin/chat-history/${id}`);
      expect(r.status).toBe(404);
      expect(r.body).toEqual({ detail: "Chat history entry not found" });
    }
    expect((await call(t, "DELETE", "/admin/chat-history/nope")).status).toBe(404);
  });

  test("delete one and clear all", async () => {
    const t = await adminApp();
    const store = await withStore(t, null);
    const a = record(store, "a");
    record(store, "b");
    expect((await call(t, "DELETE", `/admin/chat-history/${a}`)).body).toEqual({ success: true });
    expect((await call(t, "GET", "/admin/chat-history")).body.total).toBe(1);
    expect((await call(t, "DELETE", "/admin/chat-history")).body).toEqual({ success: true });
    expect((await call(t, "GET", "/admin/chat-history")).body.total).toBe(0);
  });

  test("settings: lowering the limit drops the oldest at once, 0 stops recording; bad limits are 400", async () => {
    const t = await adminApp();
    const store = await withStore(t, null);
    const ids = [];
    for (const x of ["a", "b", "c"]) {
      ids.push(record(store, x));
      await Bun.sleep(2);
    }
    const r = await call(t, "PUT", "/admin/chat-history/settings", { limit: 2 });
    expect(r.body).toMatchObject({ success: true, limit: 2, total: 2, config_writable: false });
    expect(store.items().map((e) => e.id)).toEqual([ids[2]!, ids[1]!]);
    expect((await call(t, "PUT", "/admin/chat-history/settings", { limit: 0 })).body.total).toBe(0);
    expect(store.start({ surface: "chat", model: "m", stream: false, caller_id: "c" })).toBeNull();
    for (const limit of [-1, 1001, 1.5, "5", null]) expect((await call(t, "PUT", "/admin/chat-history/settings", { limit })).status).toBe(400);
  });

  test("persists to <data dir>/chat-history.json and reloads it", async () => {
    const dir = scratchDir("svc-history-");
    const t = await adminApp();
    const store = await withStore(t, dir);
    const id = record(store, "kept");
    await store.flush();
    const doc = JSON.parse(await readFile(join(dir, "chat-history.json"), "utf8"));
    expect(doc).toMatchObject({ version: 1, revision: store.revision });
    expect(doc.items[0].id).toBe(id);
    const t2 = await adminApp();
    await withStore(t2, dir);
    const list = await call(t2, "GET", "/admin/chat-history");
    expect(list.body).toMatchObject({ total: 1, persisted: true, path: join(dir, "chat-history.json") });
    expect((await call(t2, "GET", `/admin/chat-history/${id}`)).body.item.content).toBe("kept");
  });
});
