// core-upstream.md §7.14: a `ready` that echoes a different model_type than was sent is logged as a warning
// (once per attempt), and the answer is delivered as usual.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { makeTestApp } from "../helpers/app";
import { startCoreSimulator, type CoreSimulator } from "../../src/sim/index";
import { modelEchoCheck } from "../../src/pipeline/model-echo";
import type { Step } from "../../src/sim/types";

describe("modelEchoCheck", () => {
  test("warns once on a different echo, never on the same one or on a missing one", () => {
    const warnings: unknown[][] = [];
    const check = modelEchoCheck("default", { warn: (...a: unknown[]) => warnings.push(a) });
    check.round({ type: "round", round: 1, modelType: "default" });
    check.round({ type: "round", round: 2 });
    expect(warnings).toHaveLength(0);
    check.round({ type: "round", round: 3, modelType: "expert" });
    check.round({ type: "round", round: 4, modelType: "expert" });
    expect(warnings).toEqual([["core echoed a different model_type than was sent", { sent: "default", echoed: "expert", round: 3 }]]);
  });
});

describe("against the simulator", () => {
  let sim: CoreSimulator;
  const accounts = [{ email: "echo@sim.test", password: "pw" }];
  beforeAll(async () => {
    sim = await startCoreSimulator({ difficulty: 1, accounts });
  });
  afterAll(() => sim.stop());
  beforeEach(() => sim.reset());

  const ask = async (steps: Step[]) => {
    const t = await makeTestApp({ config: { keys: ["sk-echo"], accounts }, env: { SVC_CORE_BASE_URL: sim.url } });
    sim.enqueue({ script: { name: "echo", rounds: [{ steps: [...steps, { snapshot: { answer: "hi" } }, { usage: { tokens: 3 } }, { status: "FINISHED" }] }] } });
    const r = await t.req("/v1/chat/completions", {
      method: "POST",
      headers: { Authorization: "Bearer sk-echo" },
      json: { model: "core-v4-flash-nothinking", messages: [{ role: "user", content: "hello" }] },
    });
    return { t, r, body: (await r.json()) as any };
  };

  test("a mismatched echo is a logged warning and the answer still comes", async () => {
    const { t, r, body } = await ask([{ ready: { model_type: "renamed-model" } }]);
    expect(r.status).toBe(200);
    expect(body.choices[0].message.content).toBe("hi");
    const lines = t.logs.filter((l) => l.includes("different model_type"));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain("renamed-model");
  });

  test("the echo of the model that was sent is not logged", async () => {
    const { t, r } = await ask([{ ready: {} }]);
    expect(r.status).toBe(200);
    expect(t.logs.some((l) => l.includes("different model_type"))).toBe(false);
  });
});
