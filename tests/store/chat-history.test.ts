import { describe, expect, test } from "bun:test";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { ChatHistoryStore, FIELD_CAP } from "../../src/store/chat-history";
import { CoalescingWriter } from "../../src/config/persist";
import { scratchDir } from "../helpers/scratch";

const start = { surface: "chat" as const, model: "m", stream: true, caller_id: "caller:1" };

describe("ChatHistoryStore (D12)", () => {
  test("admin-tester requests are never recorded; limit 0 records nothing", async () => {
    let limit = 5;
    const s = await ChatHistoryStore.open({ path: null, limit: () => limit });
    expect(s.start({ ...start, source: "admin-tester" })).toBeNull();
    expect(s.start({ ...start, source: "my-ui" })).toMatch(/^chat_[0-9a-f]{24}$/);
    limit = 0;
    expect(s.start(start)).toBeNull();
  });

  test("each text field is capped at 1 MiB and marked truncated; preview is 160 characters", async () => {
    const s = await ChatHistoryStore.open({ path: null, limit: () => 5 });
    const id = s.start({ ...start, user_input: "q".repeat(500) })!;
    s.append(id, { content: "x".repeat(FIELD_CAP) });
    s.append(id, { content: "overflow" });
    const e = s.get(id)!;
    expect(e.content.length).toBe(FIELD_CAP);
    expect(e.truncated).toBe(true);
    expect(e.preview.length).toBe(160);
    expect(e.user_input_preview.length).toBe(160);
    expect(e.first_token_ms).not.toBeNull();
  });

  test("entries left streaming by a crash load as interrupted errors", async () => {
    const dir = scratchDir("svc-hist-");
    const a = await ChatHistoryStore.open({ path: ChatHistoryStore.pathIn(dir), limit: () => 5 });
    const id = a.start(start)!;
    a.append(id, { content: "partial" });
    await a.flush();
    const b = await ChatHistoryStore.open({ path: ChatHistoryStore.pathIn(dir), limit: () => 5 });
    expect(b.get(id)).toMatchObject({ status: "error", error_code: "interrupted", content: "partial" });
    expect(b.revision).toBeGreaterThanOrEqual(a.revision);
  });

  test("every write is the whole history as JSON.stringify gives it, though unchanged entries are not serialised again", async () => {
    const dir = scratchDir("svc-hist-");
    const path = ChatHistoryStore.pathIn(dir);
    const s = await ChatHistoryStore.open({ path, limit: () => 3 });
    const expected = () => `${JSON.stringify({ version: 1, revision: s.revision, items: s.items() })}\n`;
    const ids: string[] = [];
    const steps: (() => void)[] = [
      () => ids.push(s.start({ ...start, request_messages: [{ role: "user", content: "é \"q\" \u2028" }], final_prompt: "p".repeat(5000) })!),
      () => s.append(ids[0]!, { content: "Hel" }),
      () => ids.push(s.start(start)!),
      () => s.append(ids[0]!, { content: "lo", reasoning: "hm" }),
      () => s.finish(ids[1]!, { status: "success", usage: { input_tokens: 3 } }),
      () => s.update(ids[0]!, { account_id: "a@x" }),
      () => ids.push(s.start(start)!, s.start(start)!), // over the limit: the oldest goes
      () => s.delete(ids[2]!),
      () => s.finish(ids[0]!, { status: "stopped" }),
    ];
    for (const step of steps) {
      step();
      await s.flush();
      expect(await readFile(path, "utf8")).toBe(expected());
    }
  });

  test("a burst of changes is one debounced write", async () => {
    const dir = scratchDir("svc-hist-");
    const writer = new CoalescingWriter(ChatHistoryStore.pathIn(dir));
    const s = await ChatHistoryStore.open({ path: ChatHistoryStore.pathIn(dir), limit: () => 50, writer });
    for (let i = 0; i < 20; i++) {
      const id = s.start(start)!;
      s.finish(id, { status: "success" });
    }
    expect(writer.writes).toBe(0);
    await Bun.sleep(650);
    await writer.flush();
    expect(writer.writes).toBe(1);
    const doc = JSON.parse(await readFile(ChatHistoryStore.pathIn(dir), "utf8"));
    expect(doc.items.length).toBe(20);
  });

  test("an unwritable data directory keeps history in memory and reports persisted:false", async () => {
    const dir = scratchDir("svc-hist-");
    // A file where the directory should be: mkdir fails whoever runs the test (root ignores chmod).
    await writeFile(join(dir, "blocked"), "");
    const s = await ChatHistoryStore.open({ path: join(dir, "blocked", "chat-history.json"), limit: () => 5 });
    expect(s.persisted).toBe(true);
    s.start(start);
    await s.flush();
    expect(s.persisted).toBe(false);
    expect(s.size()).toBe(1);
  });

  test("a corrupt file is ignored rather than failing the start", async () => {
    const dir = scratchDir("svc-hist-");
    await writeFile(ChatHistoryStore.pathIn(dir), "{not json");
    const s = await ChatHistoryStore.open({ path: ChatHistoryStore.pathIn(dir), limit: () => 5 });
    expect(s.size()).toBe(0);
  });
  test("entries started in the same millisecond keep their order: newest first, the oldest dropped at the limit, the same after a reload", async () => {
    const dir = scratchDir("svc-hist-");
    const path = ChatHistoryStore.pathIn(dir);
    const now = () => 1_700_000_000_000; // one millisecond for every entry
    const s = await ChatHistoryStore.open({ path, limit: () => 3, now });
    const ids = [s.start(start)!, s.start(start)!, s.start(start)!];
    expect(s.items().map((e) => e.id)).toEqual([ids[2]!, ids[1]!, ids[0]!]);
    ids.push(s.start(start)!); // over the limit: the first started goes
    expect(s.items().map((e) => e.id)).toEqual([ids[3]!, ids[2]!, ids[1]!]);
    await s.flush();
    const reloaded = await ChatHistoryStore.open({ path, limit: () => 3, now });
    expect(reloaded.items().map((e) => e.id)).toEqual([ids[3]!, ids[2]!, ids[1]!]);
    reloaded.start(start);
    expect(reloaded.items().map((e) => e.id).slice(1)).toEqual([ids[3]!, ids[2]!]);
  });

  test("at the limit the oldest by created_at goes, also when an older entry arrived after newer ones (another instance's)", async () => {
    let t = 1_700_000_000_000;
    const s = await ChatHistoryStore.open({ path: null, limit: () => 3, now: () => t });
    const a = s.start(start)!;
    t += 10;
    const b = s.start(start)!;
    // Another instance's entry, started before both, arrives now (Redis replication): added last, yet the oldest.
    const remote = { ...s.get(a)!, id: "chat_" + "0".repeat(24), created_at: new Date(t - 1000).toISOString(), revision: 1 };
    s.applyRemote(remote);
    t += 10;
    const c = s.start(start)!; // over the limit: the remote one goes, not the first added
    expect(s.items().map((e) => e.id)).toEqual([c, b, a]);
    t += 10;
    s.start(start); // and then the oldest of ours
    expect(s.get(a)).toBeUndefined();
    expect(s.size()).toBe(3);
  });
});
