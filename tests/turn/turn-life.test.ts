// A turn's lifetime (turn-life.ts) and the live attempt it settles (live-attempt.ts): the client leaving or the
// turn's events being cancelled abort the core work and settle the attempt once; the start deadline aborts only
// the core work.
import { describe, expect, test } from "bun:test";
import { TurnLife } from "../../src/turn/turn-life";
import { liveAttempt } from "../../src/turn/live-attempt";
import { GatewayError } from "../../src/util/gateway-error";
import { liveOf, scripted } from "./helpers";

describe("the turn's lifetime", () => {
  test("the client leaving ends the turn: core work aborted, the live attempt's events cancelled and settled", async () => {
    const client = new AbortController();
    const life = new TurnLife(client.signal, 60_000);
    const log: string[] = [];
    const cancelled: unknown[] = [];
    life.current = liveOf(scripted("a", [], cancelled), log);
    const reason = new DOMException("gone", "AbortError");
    client.abort(reason);
    expect(life.ended).toBe(true);
    expect(life.workSignal.reason).toBe(reason);
    expect(cancelled).toEqual([reason]);
    expect(log).toEqual(["settled a"]);
    life.deadline.disarm();
  });

  test("a client gone before the turn began: the turn is over and no core work starts", () => {
    const client = new AbortController();
    client.abort("early");
    const life = new TurnLife(client.signal, 60_000);
    expect(life.ended).toBe(true);
    expect(life.workSignal.aborted).toBe(true);
    life.deadline.disarm();
  });

  test("ended from inside (the events cancelled): same as the client leaving", () => {
    const life = new TurnLife(new AbortController().signal, 60_000);
    const log: string[] = [];
    life.current = liveOf(scripted("b", []), log);
    life.end("cancelled");
    expect(life.workSignal.reason).toBe("cancelled");
    expect(log).toEqual(["settled b"]);
    life.deadline.disarm();
  });

  test("once detached, the client's signal no longer ends the turn", () => {
    const client = new AbortController();
    const life = new TurnLife(client.signal, 60_000);
    life.detach();
    client.abort();
    expect(life.ended).toBe(false);
    life.deadline.disarm();
  });

  test("the start deadline aborts the core work with upstream_timeout, and only that", async () => {
    const life = new TurnLife(new AbortController().signal, 1);
    expect(await life.expiry).toBeNull();
    expect(life.deadline.expired).toBe(true);
    expect(life.workSignal.reason).toBeInstanceOf(GatewayError);
    expect((life.workSignal.reason as GatewayError).code).toBe("upstream_timeout");
    expect(life.ended).toBe(false);
  });
});

describe("the live attempt", () => {
  test("settling releases the lease and schedules the clean-up, exactly once", () => {
    const log: string[] = [];
    const live = liveAttempt(scripted("a", []), { account: "a", release: () => log.push("release") }, "tok", (a) => log.push(`after ${a.account} ${a.token} ${a.sessionId}`));
    live.settle();
    live.settle();
    expect(log).toEqual(["release", "after a tok s-a"]);
  });

  test("pass-through (no lease): only the clean-up", () => {
    const log: string[] = [];
    liveAttempt(scripted(null, []), null, "caller", (a) => log.push(`after ${a.account}`)).settle();
    expect(log).toEqual(["after null"]);
  });
});
