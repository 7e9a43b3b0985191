// PoW issuing and verification (core-upstream §6, §12.3), uploads and polling (§5.8, §5.9), and files
// bound to the uploading account (§9.3), against the simulator over real sockets.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { hashV1 } from "../../src/core/pow/hash";
import type { CoreSimulator } from "../../src/sim/index";
import { RawCore, solveChallenge, startTestSimulator } from "../helpers/sim";

let sim: CoreSimulator;
beforeAll(async () => {
  sim = await startTestSimulator();
});
beforeEach(() => sim.reset());
afterAll(() => sim.stop());

async function loggedIn(email = "a@sim.test", password = "pw"): Promise<RawCore> {
  const c = new RawCore(sim.url);
  if (email.includes("@")) await c.login({ email, password });
  else await c.login({ mobile: email, area_code: null, password });
  return c;
}

const toHex = (b: Uint8Array) => Buffer.from(b).toString("hex");

describe("PoW challenges", () => {
  test("a challenge carries every field, and its digest is HashV1(salt_expire_answer) for an answer below difficulty", async () => {
    const c = await loggedIn();
    const ch = await c.challenge();
    expect(Object.keys(ch).sort()).toEqual(["algorithm", "challenge", "difficulty", "expire_after", "expire_at", "salt", "signature", "target_path"]);
    expect(ch).toMatchObject({ algorithm: "CoreHashV1", difficulty: 1000, target_path: "/api/v0/chat/completion" });
    expect(ch.challenge).toMatch(/^[0-9a-f]{64}$/);
    expect(ch.salt).toMatch(/^[0-9a-f]{16}$/);
    let found = -1;
    for (let n = 0; n < 1000 && found < 0; n++) if (toHex(hashV1(new TextEncoder().encode(`${ch.salt}_${ch.expire_at}_${n}`))) === ch.challenge) found = n;
    expect(found).toBeGreaterThanOrEqual(0);
    expect(sim.counters.pow_issued).toBe(1);
  });

  test("only the two target paths are issued", async () => {
    const c = await loggedIn();
    expect((await c.call("/api/v0/chat/create_pow_challenge", { target_path: "/api/v0/chat/continue" })).status).toBe(400);
  });

  test("accept a valid answer; reject missing, garbage, wrong target, tampered answer; rejections are recorded with a reason", async () => {
    const c = await loggedIn();
    const s = await c.session();
    const reject = async (pow: string) => {
      const r = await c.completion(s, "hi", { pow });
      expect(r.status).toBe(400);
      expect(await r.json()).toEqual({ code: 40300, msg: "invalid pow response", data: null });
      return sim.requests({ path: "/api/v0/chat/completion" }).at(-1)!.pow!.reason;
    };
    expect(await reject("bm9wZQ==")).toBe("not base64 json");
    expect(await reject(await c.pow("/api/v0/file/upload_file"))).toBe("wrong target");
    const good = JSON.parse(Buffer.from(await c.pow(), "base64").toString());
    expect(await reject(Buffer.from(JSON.stringify({ ...good, answer: good.answer + 1 })).toString("base64"))).toBe("wrong answer");
    expect(await reject(Buffer.from(JSON.stringify({ ...good, signature: "forged" })).toString("base64"))).toBe("unknown signature");
    const ok = await c.completion(s, "hi", { pow: Buffer.from(JSON.stringify(good)).toString("base64") });
    expect(ok.status).toBe(200);
    await ok.text();
    expect(sim.requests({ path: "/api/v0/chat/completion" }).at(-1)!.pow).toEqual({ valid: true, reason: "ok" });
    expect(sim.counters.pow_rejected).toBe(4);
  });

  test("an answer past expire_at is rejected (virtual clock advanced)", async () => {
    const c = await loggedIn();
    const s = await c.session();
    const pow = await c.pow();
    sim.advanceClock(301_000);
    expect((await c.completion(s, "hi", { pow })).status).toBe(400);
    expect(sim.requests().at(-1)!.pow!.reason).toBe("expired");
  });

  test("re-use of an unexpired answer is accepted (continue), unless powSingleUse; envelope200 rejection form", async () => {
    const c = await loggedIn();
    const s = await c.session();
    const pow = await c.pow();
    await (await c.completion(s, "[[sim:incomplete-continue]] go", { pow })).text();
    const cont = await c.continue(s, 2, pow);
    expect(cont.status).toBe(200);
    await cont.text();
    sim.set({ powSingleUse: true, powRejectForm: "envelope200" });
    const s2 = await c.session();
    const r = await c.completion(s2, "hi", { pow });
    expect(r.status).toBe(200);
    expect((await r.json()).data).toMatchObject({ biz_code: 40300, biz_msg: "invalid pow response" });
  });

  test("the pow-rejected scenario rejects a valid answer once", async () => {
    const c = await loggedIn();
    sim.enqueue({ scenario: "pow-rejected" });
    const s = await c.session();
    expect((await c.completion(s, "hi")).status).toBe(400);
    const ok = await c.completion(s, "hi");
    expect(ok.status).toBe(200);
    await ok.text();
  });

  test("solveChallenge answers 0 and difficulty-1 edges through the header format", () => {
    const enc = new TextEncoder();
    for (const answer of [0, 9]) {
      const ch = { algorithm: "CoreHashV1", challenge: toHex(hashV1(enc.encode(`s_1_${answer}`))), salt: "s", expire_at: 1, difficulty: 10, signature: "x", target_path: "/t" };
      expect(JSON.parse(Buffer.from(solveChallenge(ch), "base64").toString()).answer).toBe(answer);
    }
  });
});

describe("files", () => {
  test("upload replies with the PENDING file object; a poll makes it SUCCESS with token_usage and signed_path", async () => {
    const c = await loggedIn();
    const r = await c.upload("notes.txt", "hello file");
    const up = (await r.json()).data.biz_data;
    expect(up).toMatchObject({ status: "PENDING", file_name: "notes.txt", file_size: 10, model_kind: "NORMAL", token_usage: null, error_code: null, is_image: false });
    expect(up.id).toMatch(/^file-[0-9a-f-]{36}$/);
    const polled = (await c.fetchFiles(up.id)).data.biz_data.files[0];
    expect(polled).toMatchObject({ id: up.id, status: "SUCCESS" });
    expect(polled.token_usage).toBeGreaterThan(0);
    expect(polled.signed_path).toStartWith("/file?file_id=");
    expect(sim.counters).toMatchObject({ uploads: 1, file_polls: 1 });
    const rec = sim.requests({ path: "/api/v0/file/upload_file" })[0]!;
    expect(rec.body).toMatchObject({ file: { name: "notes.txt", size: 10 }, headers: { x_file_size: "10", x_model_type: "default", x_thinking_enabled: "1" } });
    expect(rec.pow!.valid).toBe(true);
  });

  test("filePolls, fileInstantReady and fileFailure", async () => {
    const c = await loggedIn();
    sim.set({ filePolls: 3 });
    const id = (await (await c.upload("a.txt", "x")).json()).data.biz_data.id;
    expect((await c.fetchFiles(id)).data.biz_data.files[0].status).toBe("PENDING");
    expect((await c.fetchFiles(id)).data.biz_data.files[0].status).toBe("PENDING");
    expect((await c.fetchFiles(id)).data.biz_data.files[0].status).toBe("SUCCESS");
    sim.set({ fileInstantReady: true });
    expect((await (await c.upload("b.txt", "y")).json()).data.biz_data.status).toBe("SUCCESS");
    sim.set({ fileInstantReady: false, filePolls: 1, fileFailure: true });
    const bad = (await (await c.upload("c.txt", "z")).json()).data.biz_data.id;
    expect((await c.fetchFiles(bad)).data.biz_data.files[0]).toMatchObject({ status: "FAILED", error_code: "PARSE_FAILED" });
  });

  test("upload validation: x-file-size must match, x-thinking-enabled must be 1, PoW for the upload target", async () => {
    const c = await loggedIn();
    expect((await c.upload("a.txt", "abc", "text/plain", { "x-file-size": "4" })).status).toBe(400);
    expect((await c.upload("a.txt", "abc", "text/plain", { "x-thinking-enabled": "0" })).status).toBe(400);
    expect((await c.upload("a.txt", "abc", "text/plain", { "x-core-pow-response": await c.pow() })).status).toBe(400);
    expect(sim.counters.uploads).toBe(0);
  });

  test("files are bound to the uploading account: a foreign ref_file_id is the HTTP 200 biz_code 9 envelope", async () => {
    const a = await loggedIn();
    const b = await loggedIn("13800138000", "pw2");
    const id = (await (await a.upload("mine.txt", "secret")).json()).data.biz_data.id;
    expect((await b.fetchFiles(id)).data.biz_data.files).toEqual([]);
    const r = await b.completion(await b.session(), "use the file", { refFileIds: [id] });
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({ code: 0, msg: "", data: { biz_code: 9, biz_msg: "invalid ref file id", biz_data: null } });
    const own = await a.completion(await a.session(), "use the file", { refFileIds: [id] });
    expect(own.headers.get("content-type")).toContain("text/event-stream");
    await own.text();
    expect(sim.requests({ path: "/api/v0/chat/completion" }).at(-1)!.body.ref_file_ids).toEqual([id]);
  });

  test("a directive inside a referenced file's text selects the scenario", async () => {
    const c = await loggedIn();
    const id = (await (await c.upload("ctx.txt", "earlier turns [[sim:error-input-too-long]] more")).json()).data.biz_data.id;
    const body = await (await c.completion(await c.session(), "live tail", { refFileIds: [id] })).text();
    expect(body).toContain('"finish_reason":"input_exceeds_limit"');
  });
});
