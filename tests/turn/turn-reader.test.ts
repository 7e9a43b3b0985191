// Reading a turn's events (turn-reader.ts): the empty-output retry's swap (D9.6), the start deadline reported in
// the stream (D9.8, D4.5), and how the turn ends (last event, cancel). Scripted attempts, no core.
import { afterEach, describe, expect, test } from "bun:test";
import { TurnReader } from "../../src/turn/turn-reader";
import { TurnLife } from "../../src/turn/turn-life";
import { EmptyOutputRetry } from "../../src/turn/empty-output-retry";
import type { LiveAttempt } from "../../src/turn/live-attempt";
import type { TurnEvent } from "../../src/pipeline/types";
import { emptyOutput, finish, liveOf, scripted } from "./helpers";

let lives: TurnLife[] = [];
afterEach(() => {
  for (const l of lives) l.deadline.disarm();
  lives = [];
});

function reader(first: LiveAttempt, restart: () => Promise<LiveAttempt>, totalMs = 60_000) {
  const life = new TurnLife(new AbortController().signal, totalMs);
  lives.push(life);
  life.current = first;
  const log: string[] = [];
  const r = new TurnReader({ life, retry: new EmptyOutputRetry(), restart, onRetry: () => log.push("retry") });
  return { r, life, log };
}

async function readAll(r: TurnReader): Promise<TurnEvent[]> {
  const all: TurnEvent[] = [];
  for (let b = await r.next(); b; b = await r.next()) {
    expect(b.length).toBeGreaterThan(0);
    all.push(...b);
  }
  return all;
}

describe("the empty-output retry's swap (D9.6)", () => {
  test("the empty attempt is cancelled and settled before the retry starts; its events go out with the retry's", async () => {
    const settled: string[] = [];
    const cancelled: unknown[] = [];
    const first = liveOf(scripted("a", [[{ type: "keepalive" }, emptyOutput]], cancelled), settled);
    const { r, log } = reader(first, async () => {
      log.push(`restart after ${settled.join()}`);
      return liveOf(scripted("b", [[{ type: "text", text: "hello" }], [finish]]), settled);
    });
    expect(await readAll(r)).toEqual([{ type: "keepalive" }, { type: "text", text: "hello" }, finish]);
    expect(cancelled).toEqual(["empty output: retried"]);
    expect(log).toEqual(["retry", "restart after settled a"]);
    expect(settled).toEqual(["settled a", "settled b"]);
  });

  test("a second empty output ends the answer with it", async () => {
    const settled: string[] = [];
    const { r } = reader(liveOf(scripted("a", [[emptyOutput]]), settled), async () => liveOf(scripted("b", [[emptyOutput]]), settled));
    expect(await readAll(r)).toEqual([emptyOutput]);
    expect(settled).toEqual(["settled a", "settled b"]);
  });

  test("the retry cannot start: the answer is the empty output, never the retry's own failure", async () => {
    const settled: string[] = [];
    const { r } = reader(liveOf(scripted("a", [[{ type: "keepalive" }, emptyOutput]]), settled), async () => {
      throw new Error("queue timeout");
    });
    const all = await readAll(r);
    expect(all.map((e) => (e.type === "error" ? e.code : e.type))).toEqual(["keepalive", "upstream_empty_output"]);
    expect(settled).toEqual(["settled a"]);
  });

  test("something shown first: no retry", async () => {
    let restarts = 0;
    const { r } = reader(liveOf(scripted("a", [[{ type: "text", text: "x" }], [emptyOutput]]), []), async () => {
      restarts++;
      throw new Error("not expected");
    });
    expect(await readAll(r)).toEqual([{ type: "text", text: "x" }, emptyOutput]);
    expect(restarts).toBe(0);
  });
});

describe("how the turn ends", () => {
  test("the last event settles the attempt at once; the next read is the end", async () => {
    const settled: string[] = [];
    const { r } = reader(liveOf(scripted("a", [[{ type: "text", text: "x" }, finish]]), settled), async () => {
      throw new Error("no");
    });
    expect(await r.next()).toEqual([{ type: "text", text: "x" }, finish]);
    expect(settled).toEqual(["settled a"]);
    expect(await r.next()).toBeNull();
  });

  test("cancelled: the attempt settles and a further read is the cancel's reason", async () => {
    const settled: string[] = [];
    const cancelled: unknown[] = [];
    const { r } = reader(liveOf(scripted("a", [[{ type: "text", text: "x" }], [{ type: "text", text: "y" }]], cancelled), settled), async () => {
      throw new Error("no");
    });
    expect(await r.next()).toEqual([{ type: "text", text: "x" }]);
    await r.cancel("bye");
    expect(cancelled).toEqual(["bye"]);
    expect(settled).toEqual(["settled a"]);
    await expect(r.next()).rejects.toBe("bye");
  });

  test("the start deadline passes before core's first token: upstream_timeout in the stream, core's read cancelled", async () => {
    const settled: string[] = [];
    const cancelled: unknown[] = [];
    const silent: LiveAttempt = liveOf(scripted("a", [], cancelled), settled);
    silent.source = { next: () => new Promise<never>(() => {}), cancel: async (reason) => void cancelled.push(reason) };
    const { r } = reader(silent, async () => silent, 1);
    const batch = await r.next();
    expect(batch!.map((e) => (e.type === "error" ? e.code : e.type))).toEqual(["upstream_timeout"]);
    expect(cancelled.length).toBe(1);
    expect(settled).toEqual(["settled a"]);
    expect(await r.next()).toBeNull();
  });
});
