// The worker pool (core-upstream §6.5): searches run off the event loop, a cancelled request cancels its
// search, and the pool keeps serving afterwards.
import { afterEach, describe, expect, test } from "bun:test";
import { loadVectors } from "../../helpers/vectors";
import { hashV1Reference } from "../../helpers/hash-reference";
import { parseChallenge, type PowChallenge } from "../../../src/core/pow/challenge";
import { defaultPoolSize, PowPool } from "../../../src/core/pow/pool";
import { POSTED } from "../../../src/core/pow/cells";

const v = loadVectors("pow.json");

function challengeFor(answer: number, difficulty: number, salt = "poolsalt"): PowChallenge {
  const digest = Buffer.from(hashV1Reference(new TextEncoder().encode(`${salt}_1712345678_${answer}`))).toString("hex");
  return parseChallenge({ algorithm: "CoreHashV1", challenge: digest, salt, expire_at: 1712345678, difficulty, signature: null, target_path: "/x" }, "CoreHashV1");
}

/** A digest no candidate is known to reach: the search runs to the end of its range. */
function unsolvable(difficulty: number): PowChallenge {
  return parseChallenge({ algorithm: "CoreHashV1", challenge: "0123456789abcdef".repeat(4), salt: "never", expire_at: 1, difficulty, target_path: "/x" }, "CoreHashV1");
}

/** The promise's value, or `lateLabel` if it takes over 3 s (a worker busy with a search it should have skipped). */
function within3s<T>(p: Promise<T>, lateLabel: string): Promise<T | string> {
  return Promise.race([p, new Promise<string>((resolve) => setTimeout(resolve, 3000, lateLabel))]);
}

const pools: PowPool[] = [];
function pool(size: number): PowPool {
  const p = new PowPool(size);
  pools.push(p);
  return p;
}
afterEach(() => {
  for (const p of pools.splice(0)) p.close();
});

describe("PowPool", () => {
  test("default size is one per spare core, at least 1, at most 4", () => {
    expect([1, 2, 3, 4, 5, 8, 64].map((n) => defaultPoolSize(n))).toEqual([1, 1, 2, 3, 4, 4, 4]);
    expect(defaultPoolSize()).toBeGreaterThanOrEqual(1);
  });

  test("solves the pow.json vector at difficulty 144000", async () => {
    const s = v.solve_vectors.find((x: any) => x.difficulty === 144000);
    const ch = parseChallenge({ algorithm: "CoreHashV1", challenge: s.challenge_hex, salt: s.salt, expire_at: s.expire_at, target_path: "/x" }, "CoreHashV1");
    expect(await pool(1).solve(ch)).toBe(s.expected_answer);
  });

  test("an unsolvable challenge resolves to null", async () => {
    expect(await pool(1).solve(challengeFor(5000, 1000))).toBeNull();
  });

  test("a full-difficulty solve runs off the event loop: /healthz answers before it finishes", async () => {
    const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: (req) => new Response(new URL(req.url).pathname === "/healthz" ? "ok" : "no") });
    try {
      const p = pool(1);
      const events: string[] = [];
      // The answer is near the top of the range, so the worker hashes ~144000 candidates.
      const solving = p.solve(challengeFor(143990, 144000)).then((answer) => {
        events.push("solved");
        return answer;
      });
      const health = await fetch(`http://127.0.0.1:${server.port}/healthz`).then((r) => r.text());
      events.push("healthz");
      expect(health).toBe("ok");
      expect(await solving).toBe(143990);
      // Had the search run on this thread, the server could not have answered until it finished.
      expect(events).toEqual(["healthz", "solved"]);
    } finally {
      server.stop(true);
    }
  });

  test("several solves share the pool and each gets its own answer", async () => {
    const p = pool(2);
    const answers = [11, 2222, 33333, 140000, 5];
    expect(await Promise.all(answers.map((a) => p.solve(challengeFor(a, 144000, `s${a}`))))).toEqual(answers);
    expect(p.workers).toBeLessThanOrEqual(2);
  });

  test("aborting cancels the search: the promise rejects with the reason and the worker is terminated", async () => {
    const p = pool(1);
    const ac = new AbortController();
    // No answer below a difficulty this large: uncancelled, the search would run for a long time.
    const searching = p.solve(unsolvable(2_000_000_000), ac.signal);
    searching.catch(() => {});
    expect(p.workers).toBe(1);
    // Jobs are posted at the end of the event-loop turn: let the search start.
    await Bun.sleep(50);
    ac.abort(new Error("client went away"));
    await expect(searching).rejects.toThrow("client went away");
    expect(p.workers).toBe(0);
    // The pool keeps working with a fresh worker.
    expect(await p.solve(challengeFor(77, 1000))).toBe(77);
  });

  test("a job aborted in the turn it was asked for is never posted: the worker is kept", async () => {
    const p = pool(1);
    const ac = new AbortController();
    const asked = p.solve(unsolvable(2_000_000_000), ac.signal);
    asked.catch(() => {});
    ac.abort(new Error("gone at once"));
    await expect(asked).rejects.toThrow("gone at once");
    expect(p.workers).toBe(1);
    // Had it been posted, this worker would be searching 2e9 candidates and the next job would wait.
    expect(await within3s(p.solve(challengeFor(12, 1000, "next")), "the aborted job was searched")).toBe(12);
  });

  test("the jobs asked for in one turn are posted to the worker at once", async () => {
    // Jobs go through shared memory (cells.ts): the pool publishes them by storing the worker's POSTED counter
    // (and wakes the worker if it sleeps). One store for the three jobs of one turn, not one per job.
    const posts: number[] = [];
    const original = Atomics.store;
    Atomics.store = ((ta: Int32Array, index: number, value: number) => {
      if (index === POSTED) posts.push(value);
      return original(ta, index, value);
    }) as typeof Atomics.store;
    try {
      const p = pool(1);
      expect(await Promise.all([1, 2, 3].map((a) => p.solve(challengeFor(a, 1000, `one${a}`))))).toEqual([1, 2, 3]);
      expect(posts).toEqual([3]);
    } finally {
      Atomics.store = original;
    }
  });

  test("the jobs asked for in one turn are all answered, each its own", async () => {
    const p = pool(1);
    // More than a worker holds at once (PIPELINE_DEPTH): the rest wait in the pool's queue.
    const answers = [3, 141, 59, 265, 358, 979, 323, 846, 264, 338];
    expect(await Promise.all(answers.map((a) => p.solve(challengeFor(a, 1000, `t${a}`))))).toEqual(answers);
  });

  test("a queued job that is aborted never starts, and the running one is unaffected", async () => {
    const p = pool(1);
    const running = p.solve(challengeFor(120000, 144000, "first"));
    const ac = new AbortController();
    const queued = p.solve(challengeFor(1, 10, "second"), ac.signal);
    ac.abort();
    await expect(queued).rejects.toThrow();
    expect(await running).toBe(120000);
  });

  test("a job posted behind the running one and then aborted is answered without a search", async () => {
    const p = pool(1);
    // A search of 3 million candidates (0.5–1 s): still running when the second job is dropped below. A short one
    // could end first, and the worker would start the second before its flag is set (then it is searched, and
    // its answer thrown away: the race the flag cannot close, and not what this test is about).
    const running = p.solve(challengeFor(3_000_000, 4_000_000, "first"));
    const ac = new AbortController();
    // Posted with the first (a worker holds PIPELINE_DEPTH jobs); searched, it would take 10–20 s.
    const posted = p.solve(unsolvable(60_000_000), ac.signal);
    posted.catch(() => {});
    await Bun.sleep(20); // the end of the turn: both are posted, the first one running
    ac.abort(new Error("left while waiting"));
    await expect(posted).rejects.toThrow("left while waiting");
    expect(await running).toBe(3_000_000);
    // The same worker goes on to the next job: the dropped one was skipped, not searched.
    expect(await within3s(p.solve(challengeFor(77, 1000)), "still searching the dropped job")).toBe(77);
    expect(p.workers).toBe(1);
  });

  test("aborting the running search hands the jobs posted behind it to a fresh worker", async () => {
    const p = pool(1);
    const ac = new AbortController();
    const running = p.solve(unsolvable(2_000_000_000), ac.signal);
    running.catch(() => {});
    const behind = p.solve(challengeFor(4242, 144000, "behind"));
    const queued = p.solve(challengeFor(99, 1000, "queued"));
    await Bun.sleep(20); // posted, the first one running
    ac.abort(new Error("client went away"));
    await expect(running).rejects.toThrow("client went away");
    expect(await Promise.all([behind, queued])).toEqual([4242, 99]);
    expect(p.workers).toBe(1);
  });

  test("many more jobs than workers are all answered, each its own", async () => {
    const p = pool(2);
    const answers = Array.from({ length: 40 }, (_, i) => (i * 7919) % 5000);
    expect(await Promise.all(answers.map((a, i) => p.solve(challengeFor(a, 5000, `m${i}`))))).toEqual(answers);
    expect(p.workers).toBe(2);
  });

  test("a salt longer than a job's cell, and a UTF-8 salt, are searched with their exact bytes", async () => {
    const p = pool(1);
    const long = "ü".repeat(400) + "x".repeat(300); // 1,100 bytes: the prefix goes by message (cells.ts)
    const salts = ["short", long, "naïve-盐", long + "2"];
    const answers = [5, 987, 42, 0];
    expect(await Promise.all(salts.map((s, i) => p.solve(challengeFor(answers[i]!, 1000, s))))).toEqual(answers);
    // And the cells are reused correctly after more jobs than the depth.
    expect(await Promise.all([7, 8, 9, 10, 11].map((a) => p.solve(challengeFor(a, 1000, `${long}${a}`))))).toEqual([7, 8, 9, 10, 11]);
  });

  test("a worker that fails fails only its running job; the jobs behind it go to a fresh worker", async () => {
    const p = pool(1);
    const running = p.solve(unsolvable(2_000_000_000));
    const behind = p.solve(challengeFor(321, 1000, "behind"));
    await Bun.sleep(20); // both posted, the first running
    // What the runtime does when the thread dies (an uncaught error in the worker): its error event.
    const slot = (p as unknown as { slots: { worker: Worker }[] }).slots[0]!;
    slot.worker.onerror!(new ErrorEvent("error", { message: "boom" }));
    await expect(running).rejects.toThrow("PoW worker failed: boom");
    expect(await behind).toBe(321);
    expect(p.workers).toBe(1);
  });

  test("an already-aborted signal rejects at once", async () => {
    const ac = new AbortController();
    ac.abort(new Error("too late"));
    await expect(pool(1).solve(challengeFor(1, 10), ac.signal)).rejects.toThrow("too late");
  });

  test("close rejects pending and running solves", async () => {
    const p = new PowPool(1);
    const running = p.solve(unsolvable(2_000_000_000));
    const queued = p.solve(challengeFor(1, 10));
    p.close();
    await expect(running).rejects.toThrow("closed");
    await expect(queued).rejects.toThrow("closed");
    await expect(p.solve(challengeFor(1, 10))).rejects.toThrow("closed");
  });

  test("an invalid size is refused", () => {
    expect(() => new PowPool(0)).toThrow(RangeError);
  });
});
