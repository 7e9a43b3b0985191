// The empty-output retry's decisions (D9.6): retry once when the answer ended empty and nothing of it was shown;
// never after something was shown, never twice; the empty attempt's earlier events go out with the retry's; the
// retry's account choice. The swap itself is in tests/turn/turn-reader.test.ts.
import { describe, expect, test } from "bun:test";
import { EmptyOutputRetry, emptyOutputError, retryExclude } from "../../src/turn/empty-output-retry";
import type { TurnEvent } from "../../src/pipeline/types";
import { emptyOutput, finish } from "./helpers";

const keepalive: TurnEvent = { type: "keepalive" };

function watched() {
  const health: string[] = [];
  const retry = new EmptyOutputRetry({ onEmptyOutput: (a) => health.push(`empty ${a}`), onAnswer: (a) => health.push(`answer ${a}`) });
  return { retry, health };
}

describe("a batch's verdict", () => {
  test("an empty output before anything was shown: retry, passing on only what came before it", () => {
    const { retry, health } = watched();
    const v = retry.scan([keepalive, { type: "text", text: "  " }, emptyOutput], "a");
    expect(v).toEqual({ events: [keepalive, { type: "text", text: "  " }], retry: true, terminal: false });
    expect(health).toEqual(["empty a"]);
  });

  test("text shown first: the empty-output error passes and ends the answer", () => {
    const { retry, health } = watched();
    expect(retry.scan([{ type: "text", text: "hi" }], "a")).toEqual({ events: [{ type: "text", text: "hi" }], retry: false, terminal: false });
    expect(retry.scan([emptyOutput], "a")).toEqual({ events: [emptyOutput], retry: false, terminal: true });
    expect(health).toEqual(["answer a", "empty a"]);
  });

  test("thinking shown counts as shown (the retry would repeat it)", () => {
    const { retry } = watched();
    const v = retry.scan([{ type: "thinking", text: "hmm" }, emptyOutput], "a");
    expect(v.retry).toBe(false);
    expect(v.terminal).toBe(true);
  });

  test("once only: a second empty output after the retry passes on", () => {
    const { retry, health } = watched();
    expect(retry.scan([emptyOutput], "a").retry).toBe(true);
    retry.retrying([]);
    expect(retry.scan([emptyOutput], "b")).toEqual({ events: [emptyOutput], retry: false, terminal: true });
    expect(health).toEqual(["empty a", "empty b"]);
  });

  test("a finish is terminal and the whole batch is passed as it is", () => {
    const { retry, health } = watched();
    const batch = [{ type: "text", text: "ok" } as TurnEvent, finish];
    const v = retry.scan(batch, null);
    expect(v.events).toBe(batch);
    expect(v.terminal).toBe(true);
    expect(health).toEqual(["answer null"]);
  });
});

describe("events carried over the retry", () => {
  test("the empty attempt's events go out once, before the retry's first ones", () => {
    const { retry } = watched();
    retry.retrying([keepalive]);
    expect(retry.withCarried([{ type: "text", text: "b" }])).toEqual([keepalive, { type: "text", text: "b" }]);
    expect(retry.withCarried([finish])).toEqual([finish]);
  });

  test("nothing carried: the batch itself", () => {
    const { retry } = watched();
    const batch = [finish];
    expect(retry.withCarried(batch)).toBe(batch);
    expect(emptyOutputError.code).toBe("upstream_empty_output");
  });
});

describe("the retry's account (D9.6)", () => {
  const deps = (count: number, candidate: boolean) => ({ accountCount: () => count, hasCandidate: () => candidate });
  const tried = new Set(["a"]);

  test("another account: the tried ones are excluded", () => {
    expect(retryExclude({ tried, ...deps(2, true) })).toEqual(new Set(["a"]));
  });

  test("the same account when pinned, when it is the only one, or when no other can serve", () => {
    expect(retryExclude({ tried, pinned: "a", ...deps(2, true) })).toEqual(new Set());
    expect(retryExclude({ tried, ...deps(1, true) })).toEqual(new Set());
    expect(retryExclude({ tried, ...deps(3, false) })).toEqual(new Set());
  });

  test("the set given is a copy: the turn's own record is not changed", () => {
    const own = new Set(["a"]);
    retryExclude({ tried: own, ...deps(2, true) }).add("b");
    expect(own).toEqual(new Set(["a"]));
  });
});
