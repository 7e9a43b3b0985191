import { describe, expect, test } from "bun:test";
import { loadVectors } from "../helpers/vectors";
import { resolveThinking, thinkingOverride } from "../../src/models/thinking";

const mapping = loadVectors("model-mapping.json");

describe("model-mapping.json thinking_overrides", () => {
  for (const v of mapping.thinking_overrides.vectors as { request_fields: Record<string, unknown>; thinking_override: boolean | null }[]) {
    test(`${JSON.stringify(v.request_fields)} → ${v.thinking_override}`, () => {
      expect(thinkingOverride(v.request_fields)).toBe(v.thinking_override);
      // The same body on a base model: the override, else the default (on).
      expect(resolveThinking(v.request_fields, "core-v4-flash", "chat").thinking).toBe(v.thinking_override ?? true);
      // -nothinking always wins (D7.1).
      expect(resolveThinking(v.request_fields, "core-v4-flash-nothinking", "chat").thinking).toBe(false);
    });
  }
});

describe("generic switches (D7.2)", () => {
  const cases: [Record<string, unknown>, boolean | null][] = [
    [{ thinking: "on" }, true],
    [{ thinking: { type: "adaptive" } }, true],
    [{ thinking: false }, false],
    [{ thinking: "none" }, false],
    [{ reasoning: true }, true],
    [{ reasoning: false }, false],
    [{ reasoning: { effort: "none" } }, false],
    [{ reasoning: { enabled: false } }, false],
    [{ reasoning: "medium" }, true],
    [{ reasoning_effort: "xhigh" }, true],
    [{ thinking: 1 }, null],
    [{ thinking: { type: "weird" } }, null],
  ];
  for (const [body, want] of cases) {
    test(`${JSON.stringify(body)} → ${want}`, () => expect(thinkingOverride(body)).toBe(want));
  }

  test("an unrecognised value is skipped and the next field decides", () => {
    expect(thinkingOverride({ thinking: "maybe", reasoning_effort: "none" })).toBe(false);
  });

  test("top-level fields win over extra_body", () => {
    expect(thinkingOverride({ thinking: "off", extra_body: { thinking: true } })).toBe(false);
  });

  // Conflict: model-mapping.json's precedence puts extra_body.* before top-level reasoning_effort;
  // D7.2 reads all three top-level fields first. decisions.md wins.
  test("D7.2 order: top-level reasoning_effort before extra_body.thinking", () => {
    expect(resolveThinking({ reasoning_effort: "none", extra_body: { thinking: true } }, "core-v4-pro", "chat")).toMatchObject({
      thinking: false,
      source: "reasoning_effort",
    });
  });

  // Conflict: core-upstream.md §8.3 and the vectors' prose accept "enable"/"disable"/"true" strings;
  // D7.2's table does not, and unrecognised values are skipped.
  test("strings outside D7.2's table are not recognised", () => {
    expect(thinkingOverride({ thinking: "enable" })).toBeNull();
    expect(thinkingOverride({ thinking: "true" })).toBeNull();
  });
});

describe("exposure per surface (D7.4)", () => {
  test("chat and responses expose whenever thinking is on", () => {
    expect(resolveThinking({}, "core-v4-flash", "chat")).toMatchObject({ thinking: true, exposeThinking: true, requested: null });
    expect(resolveThinking({}, "core-v4-pro", "responses").exposeThinking).toBe(true);
    expect(resolveThinking({ reasoning_effort: "none" }, "core-v4-pro", "responses")).toMatchObject({ thinking: false, exposeThinking: false });
  });

  test("messages: thinking on by default but hidden unless the request switched it on", () => {
    expect(resolveThinking({}, "core-v4-flash", "messages")).toMatchObject({ thinking: true, exposeThinking: false });
    expect(resolveThinking({ thinking: { type: "enabled", budget_tokens: 1024 } }, "core-v4-flash", "messages")).toMatchObject({ thinking: true, exposeThinking: true });
    expect(resolveThinking({ thinking: { type: "disabled" } }, "core-v4-flash", "messages")).toMatchObject({ thinking: false, exposeThinking: false });
  });

  test("messages: budget_tokens 0 is not off (D7.3)", () => {
    expect(resolveThinking({ thinking: { type: "enabled", budget_tokens: 0 } }, "core-v4-flash", "messages").thinking).toBe(true);
  });

  test("generate-content: thinkingBudget 0 → off; includeThoughts → on and exposed", () => {
    const off = { generationConfig: { thinkingConfig: { thinkingBudget: 0, includeThoughts: true } } };
    expect(resolveThinking(off, "core-v4-flash", "generate")).toMatchObject({ thinking: false, exposeThinking: false });
    const on = { generationConfig: { thinkingConfig: { includeThoughts: true } } };
    expect(resolveThinking(on, "core-v4-flash", "generate")).toMatchObject({ thinking: true, exposeThinking: true });
    expect(resolveThinking({}, "core-v4-flash", "generate")).toMatchObject({ thinking: true, exposeThinking: false });
    expect(resolveThinking({ generationConfig: { thinkingConfig: { thinkingBudget: 2048 } } }, "core-v4-flash", "generate")).toMatchObject({
      thinking: true,
      exposeThinking: false,
    });
  });

  test("generate-content: a generic switch turned on explicitly also exposes", () => {
    expect(resolveThinking({ reasoning_effort: "low" }, "core-v4-pro", "generate")).toMatchObject({ thinking: true, exposeThinking: true });
  });

  test("generate-content native config is ignored on other surfaces", () => {
    const body = { generationConfig: { thinkingConfig: { thinkingBudget: 0 } } };
    expect(resolveThinking(body, "core-v4-flash", "chat").thinking).toBe(true);
  });

  test("-nothinking never thinks or exposes, whatever the request says", () => {
    for (const surface of ["chat", "responses", "messages", "generate"] as const) {
      expect(resolveThinking({ thinking: true, generationConfig: { thinkingConfig: { includeThoughts: true } } }, "core-v4-pro-search-nothinking", surface)).toMatchObject({
        thinking: false,
        exposeThinking: false,
        highEffort: false,
      });
    }
  });
});

describe("effort note (svcml-and-prompts.md §3.10)", () => {
  test("high, xhigh and max efforts ask for it; lower ones do not", () => {
    expect(resolveThinking({ reasoning_effort: "high" }, "core-v4-flash", "chat").highEffort).toBe(true);
    expect(resolveThinking({ reasoning: { effort: "xhigh" } }, "core-v4-flash", "responses").highEffort).toBe(true);
    expect(resolveThinking({ reasoning_effort: "max" }, "core-v4-flash", "chat").highEffort).toBe(true);
    expect(resolveThinking({ reasoning_effort: "medium" }, "core-v4-flash", "chat").highEffort).toBe(false);
    expect(resolveThinking({}, "core-v4-flash", "chat").highEffort).toBe(false);
  });

  test("large budgets ask for it on messages and generate-content", () => {
    expect(resolveThinking({ thinking: { type: "enabled", budget_tokens: 16000 } }, "core-v4-flash", "messages").highEffort).toBe(true);
    expect(resolveThinking({ thinking: { type: "enabled", budget_tokens: 15999 } }, "core-v4-flash", "messages").highEffort).toBe(false);
    expect(resolveThinking({ generationConfig: { thinkingConfig: { thinkingBudget: 20000 } } }, "core-v4-flash", "generate").highEffort).toBe(true);
    expect(resolveThinking({ generationConfig: { thinkingConfig: { thinkingLevel: "HIGH" } } }, "core-v4-flash", "generate").highEffort).toBe(true);
  });

  test("never when thinking is off", () => {
    expect(resolveThinking({ reasoning_effort: "high" }, "core-v4-flash-nothinking", "chat").highEffort).toBe(false);
  });
});
