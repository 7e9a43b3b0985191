// The `replay` scenario (core-upstream §12.13): a capture's rounds are served byte for byte — the first
// `ready` block to the completion, each later one to a continue call that names the captured response id.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { CoreSimulator } from "../../src/sim/index";
import { splitCapture } from "../../src/sim/replay";
import { RawCore, startTestSimulator } from "../helpers/sim";
import { reduceRounds } from "./reduce";
import { scratchDir } from "../helpers/scratch";

const ROUND0 =
  'event: ready\ndata: {"request_message_id":7,"response_message_id":8,"model_type":"default"}\n\n' +
  'data: {"v":{"response":{"message_id":8,"parent_id":7,"model":"","role":"ASSISTANT","thinking_enabled":false,"ban_edit":false,"ban_regenerate":false,"status":"WIP","incomplete_message":null,"accumulated_token_usage":0,"files":[],"feedback":null,"inserted_at":1775322810.2,"search_enabled":false,"fragments":[{"id":2,"type":"RESPONSE","content":"Hel","references":[],"stage_id":1}],"has_pending_fragment":false,"auto_continue":false}}}\n\n' +
  'data: {"p":"response/fragments/-1/content","o":"APPEND","v":"lo"}\n\n' +
  'data: {"p":"response","o":"BATCH","v":[{"p":"accumulated_token_usage","v":12},{"p":"quasi_status","v":"INCOMPLETE"}]}\n\n' +
  'data: {"p":"response/fragments/-1/elapsed_secs","o":"SET","v":1.5}\n\n' +
  'data: {"p":"response/status","v":"INCOMPLETE"}\n\n' +
  'event: close\ndata: {"click_behavior":"none","auto_resume":false}\n\n';
const ROUND1 =
  'event: ready\ndata: {"request_message_id":7,"response_message_id":8,"model_type":"default"}\n\n' +
  ": \n\n" +
  'data: {"v":{"response":{"message_id":8,"parent_id":7,"model":"","role":"ASSISTANT","thinking_enabled":false,"ban_edit":false,"ban_regenerate":false,"status":"WIP","incomplete_message":null,"accumulated_token_usage":12,"files":[],"feedback":null,"inserted_at":1775322810.2,"search_enabled":false,"fragments":[{"id":2,"type":"RESPONSE","content":"Hello w","references":[],"stage_id":1}],"has_pending_fragment":false,"auto_continue":false}}}\n\n' +
  'data: {"p":"response/fragments/-1/content","o":"APPEND","v":"orld，世界"}\n\n' +
  'data: {"p":"response/status","o":"SET","v":"FINISHED"}\n\n';
const UPLOAD = '{"code":0,"msg":"","data":{"biz_code":0,"biz_msg":"","biz_data":{"id":"file-x","status":"PENDING"}}}';

let sim: CoreSimulator;
let c: RawCore;
let dir: string;
beforeAll(async () => {
  sim = await startTestSimulator();
  c = new RawCore(sim.url);
  await c.login({ email: "a@sim.test", password: "pw" });
  dir = scratchDir("sim-replay-");
  writeFileSync(join(dir, "upstream.stream.sse"), `${UPLOAD}\n${ROUND0}${ROUND1}`);
  writeFileSync(join(dir, "meta.json"), JSON.stringify({ labels: ["core_upload_file", "core_completion", "core_continue"] }));
});
beforeEach(() => sim.reset());
afterAll(async () => {
  await sim.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe("replay", () => {
  test("splitCapture: upload lines, rounds at each `event: ready` line (even after a single inserted newline), first ids", () => {
    const cut = 'event: ready\ndata: {"request_message_id":1,"response_message_id":2}\n\ndata: {"v":"par';
    const cap = splitCapture(`${UPLOAD}\n${cut}\n${ROUND1}`);
    expect(cap.uploads).toEqual([UPLOAD]);
    expect(cap.rounds).toEqual([`${cut}\n`, ROUND1]);
    expect(cap.messageIds).toEqual({ request: 1, response: 2 });
  });

  test("a sample directory replays byte for byte; the continue names the captured response id", async () => {
    sim.enqueue({ scenario: "replay", params: { dir } });
    const s = await c.createSession();
    const r0 = await c.completionText(s, "anything");
    expect(r0).toBe(ROUND0);
    const r1 = await (await c.continue(s, 8)).text();
    expect(r1).toBe(ROUND1);
    expect(reduceRounds([r0, r1])).toMatchObject({ answer: "Hello world，世界", status: "FINISHED" });
    // The next turn's parent is the captured response id.
    expect((await c.completion(s, "again", { parent: 8 })).status).toBe(200);
  });

  test("a prompt directive cannot replay (it would read host files); a missing capture is a 400 convention reply", async () => {
    const s = await c.createSession();
    const body = await c.completionText(s, `[[sim:replay file=${join(dir, "upstream.stream.sse")}]]`);
    expect(body).not.toContain("Hel");
    expect(sim.requests({ path: "/api/v0/chat/completion" }).at(-1)!.scenario).toBe("no-thinking");
    sim.enqueue({ scenario: "replay", params: { dir: join(dir, "nope") } });
    const bad = await c.completion(await c.createSession(), "x");
    expect(bad.status).toBe(400);
    expect((await bad.json()).msg).toStartWith("replay: ");
  });
});
