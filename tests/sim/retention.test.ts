// What the simulator keeps over a long run (docs/simulator.md "Retention"): issued PoW challenges until they
// expire, a bounded number of sessions, of messages kept for a continue, of uploaded files and of logged requests.
// The demo and the benches make a session and a challenge per request; before these bounds every challenge of a
// long run scanned all earlier ones and every session kept its prompt.
import { describe, expect, test } from "bun:test";
import { FileStore } from "../../src/sim/files";
import { startCoreSimulator } from "../../src/sim/index";
import { PowDesk } from "../../src/sim/pow";
import { RngFamily } from "../../src/sim/rng";
import { SessionStore } from "../../src/sim/sessions";
import { DEFAULT_SWITCHES } from "../../src/sim/types";

const sw = { ...DEFAULT_SWITCHES, powTtlS: 300 };

describe("issued PoW challenges", () => {
  test("expired ones are forgotten as new ones are issued; unexpired ones still verify", () => {
    const desk = new PowDesk(new RngFamily(1));
    for (let i = 0; i < 50; i++) desk.issue("/api/v0/chat/completion", sw, 1_000);
    expect(desk.kept).toBe(50);
    const young = desk.issue("/api/v0/chat/completion", sw, 1_200);
    expect(desk.kept).toBe(51);
    desk.issue("/api/v0/chat/completion", sw, 1_301); // the first 50 expired at 1,300
    expect(desk.kept).toBe(2);
    expect(desk.verify(header(young, 0), "/api/v0/chat/completion", sw, 1_301).reason).not.toBe("unknown signature");
  });
});

describe("sessions", () => {
  test("past the bound the oldest finished sessions are forgotten, newest kept", () => {
    const store = new SessionStore(new RngFamily(3), 3);
    const made = Array.from({ length: 5 }, () => store.create("acc", 1).session);
    expect(store.all().map((s) => s.id)).toEqual(made.slice(2).map((s) => s.id));
    expect(store.get(made[0]!.id)).toBeUndefined();
  });

  test("a session whose body is still streaming is never forgotten", () => {
    const store = new SessionStore(new RngFamily(4), 2);
    const live = store.create("acc", 1).session;
    live.live = true;
    const later = Array.from({ length: 4 }, () => store.create("acc", 1).session);
    expect(store.get(live.id)).toBe(live);
    expect(store.all().map((s) => s.id)).toEqual([live.id, later[3]!.id]);
  });
});

describe("messages kept for a continue", () => {
  const message = () => ({ script: { name: "s", rounds: [] }, model: {} as never, round: 0, promptTokens: 1, seed: 1 });

  test("past the bound the oldest finished sessions let their message go, the newest and live ones keep it", () => {
    const store = new SessionStore(new RngFamily(5), 100, 2);
    const [a, b, c, d] = Array.from({ length: 4 }, () => store.create("acc", 1).session);
    b!.live = true;
    for (const s of [a!, b!, c!, d!]) store.setMessage(s, message());
    expect([a, b, c, d].map((s) => s!.current !== null)).toEqual([false, true, false, true]);
    expect(store.all()).toHaveLength(4);
    b!.live = false;
    store.setMessage(c!, message()); // c's new message; b is now the oldest finished one holding a message
    expect([a, b, c, d].map((s) => s!.current !== null)).toEqual([false, false, true, true]);
  });
});

describe("uploaded files", () => {
  test("past the bound the oldest upload is forgotten", async () => {
    const files = new FileStore(new RngFamily(6), 2);
    const upload = async (name: string) => {
      const form = new FormData();
      form.append("file", new File([`text of ${name}`], name, { type: "text/plain" }));
      const req = new Request("http://sim.test/api/v0/file/upload_file", { method: "POST", body: form, headers: { "x-file-size": String(`text of ${name}`.length), "x-thinking-enabled": "1" } });
      const r = await files.accept(req, "acc", DEFAULT_SWITCHES, 1);
      expect(r.file).toBeDefined();
      return r.file!;
    };
    const [a, b, c] = [await upload("a.txt"), await upload("b.txt"), await upload("c.txt")];
    expect(files.get(a.id)).toBeUndefined();
    expect(files.get(b.id)?.text).toBe("text of b.txt");
    expect(files.get(c.id)?.text).toBe("text of c.txt");
  });
});

describe("the request log", () => {
  test("keeps at least its last `requestLog` requests and never more than a twentieth over", async () => {
    const sim = await startCoreSimulator({ requestLog: 20, accounts: [{ email: "a@x.test", password: "pw" }] });
    try {
      const sizes: number[] = [];
      for (let i = 0; i < 45; i++) {
        await fetch(`${sim.url}/api/v0/users/login`, { method: "POST", body: JSON.stringify({ email: "a@x.test", password: `try ${i}` }) });
        sizes.push(sim.requests().length);
      }
      expect(Math.max(...sizes)).toBe(20);
      expect(sizes.slice(20).every((n) => n === 20)).toBe(true);
      expect(sim.requests().at(-1)!.body).toMatchObject({ password: "try 44" });
    } finally {
      await sim.stop();
    }
  });
});

function header(ch: { algorithm: string; challenge: string; salt: string; signature: string; target_path: string }, answer: number): string {
  return Buffer.from(JSON.stringify({ ...ch, answer })).toString("base64");
}
