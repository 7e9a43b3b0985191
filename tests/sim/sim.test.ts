// The core simulator over real sockets: the endpoints, PoW verification, busy sessions, files bound to their
// account, and core's wire habits in the streams it writes (core-upstream §7.17, §12).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startCoreSimulator, type CoreSimulator } from "../../src/sim/index";
import { RawCore } from "../helpers/sim";

let sim: CoreSimulator;
beforeAll(async () => {
  sim = await startCoreSimulator({ difficulty: 1000, accounts: [{ email: "a@sim.test", password: "pw" }, { mobile: "13800138000", password: "pw2" }] });
});
afterAll(() => sim.stop());

const lines = (body: string) => body.split("\n").filter((l) => l.startsWith("data: ") || l.startsWith("event: "));

describe("simulator endpoints", () => {
  test("login by email and by mobile (86 prefix dropped); wrong password is biz_code 2", async () => {
    const c = new RawCore(sim.url);
    expect((await c.login({ email: "A@sim.test", password: "pw", device_id: "d", os: "android" })).data.biz_code).toBe(0);
    expect(c.token).toMatch(/^sim-[0-9a-f]{32}$/);
    expect((await c.login({ mobile: "8613800138000", area_code: null, password: "pw2" })).data.biz_code).toBe(0);
    const bad = await new RawCore(sim.url).login({ email: "a@sim.test", password: "nope" });
    expect(bad.data).toMatchObject({ biz_code: 2, biz_msg: "wrong password" });
  });

  test("an unknown token is answered with 401", async () => {
    const c = new RawCore(sim.url);
    c.token = "sim-bogus";
    expect((await c.call("/api/v0/chat_session/create", { agent: "chat" })).status).toBe(401);
  });

  test("session create alternates between the two observed shapes", async () => {
    const c = new RawCore(sim.url);
    await c.login({ email: "a@sim.test", password: "pw" });
    const shapes = new Set<string>();
    for (let i = 0; i < 4; i++) {
      const j = await (await c.call("/api/v0/chat_session/create", { agent: "chat" })).json();
      shapes.add(j.data.biz_data.id ? "id" : "nested");
    }
    expect([...shapes].sort()).toEqual(["id", "nested"]);
  });

  test("completions need a valid PoW answer for the completion target", async () => {
    const c = new RawCore(sim.url);
    await c.login({ email: "a@sim.test", password: "pw" });
    const s = await c.session();
    expect((await c.completion(s, "hi", { pow: "bm9wZQ==" })).status).toBe(400);
    const uploadPow = await c.pow("/api/v0/file/upload_file");
    expect((await c.completion(s, "hi", { pow: uploadPow })).status).toBe(400);
    const ok = await c.completion(s, "hi");
    expect(ok.status).toBe(200);
    expect(ok.headers.get("content-type")).toContain("text/event-stream");
    await ok.text();
  });

  test("a second completion on a session that is still streaming is busy", async () => {
    const c = new RawCore(sim.url);
    await c.login({ email: "a@sim.test", password: "pw" });
    const s = await c.session();
    const first = await c.completion(s, "[[sim:slow-tokens delay_ms=20]] slow");
    const second = await c.completion(s, "again");
    expect(await second.json()).toEqual({ msg: "有消息正在生成，请稍后再试" });
    await first.text();
  });

  test("uploads go PENDING → SUCCESS by polling and are bound to the uploading account", async () => {
    const a = new RawCore(sim.url);
    await a.login({ email: "a@sim.test", password: "pw" });
    const form = new FormData();
    form.append("file", new File(["hello"], "h.txt", { type: "text/plain" }));
    const up = await fetch(`${sim.url}/api/v0/file/upload_file`, {
      method: "POST",
      headers: { authorization: `Bearer ${a.token}`, "x-core-pow-response": await a.pow("/api/v0/file/upload_file"), "x-file-size": "5", "x-thinking-enabled": "1" },
      body: form,
    });
    const file = (await up.json()).data.biz_data;
    expect(file.status).toBe("PENDING");
    const polled = await (await a.call(`/api/v0/file/fetch_files?file_ids=${file.id}`)).json();
    expect(polled.data.biz_data.files[0].status).toBe("SUCCESS");
    const b = new RawCore(sim.url);
    await b.login({ mobile: "13800138000", password: "pw2" });
    const foreign = await b.completion(await b.session(), "use the file", { refFileIds: [file.id] });
    expect((await foreign.json()).data).toMatchObject({ biz_code: 9, biz_msg: "invalid ref file id" });
  });
});

describe("wire habits", () => {
  test("ready and update_session first, a snapshot, the first token with path and op, then pathless tokens", async () => {
    const c = new RawCore(sim.url);
    await c.login({ email: "a@sim.test", password: "pw" });
    const body = await (await c.completion(await c.session(), "Tell me something short", { thinking: true })).text();
    const l = lines(body);
    expect(l[0]).toBe("event: ready");
    expect(l[2]).toBe("event: update_session");
    expect(JSON.parse(l[4]!.slice(6)).v.response.fragments[0].type).toBe("THINK");
    expect(JSON.parse(l[5]!.slice(6))).toMatchObject({ p: "response/fragments/-1/content", o: "APPEND" });
    expect(Object.keys(JSON.parse(l[6]!.slice(6)))).toEqual(["v"]);
    const append = l.findIndex((x) => x.includes('"type":"RESPONSE"'));
    expect(JSON.parse(l[append]!.slice(6))).toMatchObject({ p: "response/fragments", o: "APPEND" });
    // The next patch names the path but omits the op: sticky APPEND.
    expect(JSON.parse(l[append + 1]!.slice(6))).toEqual({ p: "response/fragments/-1/content", v: expect.any(String) });
    expect(body).toContain('{"p":"response/status","o":"SET","v":"FINISHED"}');
    expect(body).not.toContain("[DONE]");
  });

  test("a continue round re-sends the message as a snapshot with the unseen characters", async () => {
    const c = new RawCore(sim.url);
    await c.login({ email: "a@sim.test", password: "pw" });
    const s = await c.session();
    const first = await (await c.completion(s, "[[sim:incomplete-continue rounds=1 unseen=QQ]] go")).text();
    expect(first).toContain('{"p":"response/status","v":"INCOMPLETE"}');
    const cont = await c.call("/api/v0/chat/continue", { chat_session_id: s, message_id: 2, fallback_to_resume: true }, { "x-core-pow-response": await c.pow() });
    const text = await cont.text();
    expect(text.startsWith("event: ready")).toBe(true);
    expect(text).toContain(": \n\n");
    expect(text).toContain("Part one of the answer QQ");
  });
});
