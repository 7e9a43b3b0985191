import { describe, expect, test } from "bun:test";
import { loadVectors } from "../helpers/vectors";
import { resolveModel, normaliseModelName } from "../../src/models/resolve";
import { BUILTIN_ALIASES, BUILTIN_ALIAS_GROUPS } from "../../src/models/aliases";
import { NATIVE_MODEL_IDS } from "../../src/models/catalog";

const mapping = loadVectors("model-mapping.json");

function resolvedId(name: string, aliases?: Record<string, string>): string | null {
  const r = resolveModel(name, aliases);
  return r.ok ? r.id : null;
}

describe("model-mapping.json vectors", () => {
  for (const v of mapping.alias_examples as { requested: string; resolved: string }[]) {
    test(`alias ${v.requested} → ${v.resolved}`, () => {
      expect(resolvedId(v.requested)).toBe(v.resolved);
    });
  }
  for (const v of mapping.heuristic_examples_for_unlisted_ids as { requested: string; resolved: string | null }[]) {
    test(`heuristic ${v.requested} → ${v.resolved}`, () => {
      expect(resolvedId(v.requested)).toBe(v.resolved);
    });
  }
  for (const m of mapping.canonical_models as { model_id: string }[]) {
    test(`native ${m.model_id} resolves to itself`, () => {
      expect(resolvedId(m.model_id)).toBe(m.model_id);
    });
  }
});

describe("D6.4 test vectors", () => {
  const cases: [string, string | null, string?][] = [
    ["claude-opus-9", "core-v4-pro"],
    ["gpt-9-vision-preview", "core-v4-vision"],
    ["gpt-x-search", "core-v4-flash-search"],
    ["o7-deep-research", "core-v4-pro-search"],
    ["mistral-large-3", "core-v4-flash"],
    ["command-r1-plus", "core-v4-pro"],
    ["foo-bar", null, "model_not_found"],
    ["core-v3", null, "model_not_found"],
    ["gpt-3.5-turbo", null, "model_retired"],
    ["GPT-4O-NOTHINKING", "core-v4-flash-nothinking"],
  ];
  for (const [name, id, code] of cases) {
    test(`${name} → ${id ?? code}`, () => {
      const r = resolveModel(name);
      if (id) expect(r).toMatchObject({ ok: true, id });
      else expect(r).toMatchObject({ ok: false, code });
    });
  }
});

describe("resolution order (D6.2)", () => {
  test("trims, lower-cases and strips a leading models/", () => {
    expect(normaliseModelName("  Models/Core-V4-Pro ")).toBe("core-v4-pro");
    expect(resolvedId("models/gemini-2.5-pro")).toBe("core-v4-pro");
  });

  test("reports base and nothinking for a -nothinking result", () => {
    expect(resolveModel("o3-nothinking")).toEqual({ ok: true, id: "core-v4-pro-nothinking", base: "core-v4-pro", nothinking: true });
    expect(resolveModel("core-v4-vision")).toEqual({ ok: true, id: "core-v4-vision", base: "core-v4-vision", nothinking: false });
  });

  test("a configured alias overrides a built-in one of the same name", () => {
    expect(resolvedId("gpt-4o", { "gpt-4o": "core-v4-pro-search" })).toBe("core-v4-pro-search");
  });

  test("configured alias keys match case-insensitively and may target a -nothinking id", () => {
    expect(resolvedId("my-model", { "My-Model": "core-v4-pro-nothinking" })).toBe("core-v4-pro-nothinking");
  });

  test("a configured alias revives a retired name on purpose", () => {
    expect(resolveModel("gpt-3.5-turbo").ok).toBe(false);
    expect(resolvedId("gpt-3.5-turbo", { "gpt-3.5-turbo": "core-v4-flash" })).toBe("core-v4-flash");
  });

  test("an alias literally ending in -nothinking is matched before the suffix rule", () => {
    expect(resolvedId("team-nothinking", { "team-nothinking": "core-v4-pro" })).toBe("core-v4-pro");
  });

  test("-nothinking applies to aliases, natives, the heuristic, and is idempotent", () => {
    expect(resolvedId("my-x-nothinking", { "my-x": "core-v4-pro-search" })).toBe("core-v4-pro-search-nothinking");
    expect(resolvedId("my-y-nothinking", { "my-y": "core-v4-flash-nothinking" })).toBe("core-v4-flash-nothinking");
    expect(resolvedId("claude-opus-9-nothinking")).toBe("core-v4-pro-nothinking");
  });

  test("a retired name stays retired with -nothinking, and the message quotes the name as sent", () => {
    const r = resolveModel(" Claude-2.1-nothinking ");
    expect(r).toEqual({ ok: false, code: "model_retired", message: "Model 'Claude-2.1-nothinking' is retired and no longer available." });
  });

  test("retired patterns of D6.5", () => {
    for (const name of ["gpt-4-32k", "text-davinci-003", "code-cushman-001", "davinci", "babbage-002", "claude-1", "claude-instant-1.2", "gemini-1.0-pro", "chat-bison-001", "codechat-bison"]) {
      expect(resolveModel(name)).toMatchObject({ ok: false, code: "model_retired" });
    }
    // claude-3 is not retired (claude-[12] only).
    expect(resolvedId("claude-3-haiku-20240307")).toBe("core-v4-flash");
  });

  test("the heuristic needs a known family prefix; o<digits> must end or be followed by -", () => {
    expect(resolvedId("omni-1")).toBeNull();
    expect(resolvedId("o1x")).toBeNull();
    expect(resolvedId("o5")).toBe("core-v4-pro");
    expect(resolvedId("meta-llama/llama-3-70b")).toBe("core-v4-flash");
    expect(resolvedId("qwen2.5-vl-72b")).toBe("core-v4-vision");
    expect(resolvedId("grok-4-think")).toBe("core-v4-pro");
    expect(resolvedId("core-v4-ultra")).toBeNull();
  });

  test("an empty name is model_not_found", () => {
    expect(resolveModel("  ")).toMatchObject({ ok: false, code: "model_not_found" });
  });

  test("a configured alias with a non-native target is skipped, not crashing", () => {
    expect(resolvedId("gpt-4o", { "gpt-4o": "gpt-4" })).toBe("core-v4-flash");
  });
});

describe("built-in alias set (D6.3)", () => {
  test("every built-in target is native and every name also resolves with -nothinking", () => {
    for (const [name, target] of BUILTIN_ALIASES) {
      expect(NATIVE_MODEL_IDS as readonly string[]).toContain(target);
      expect(resolvedId(name)).toBe(target);
      expect(resolvedId(`${name}-nothinking`)).toBe(`${target}-nothinking`);
    }
  });

  test("holds no retired name", () => {
    for (const name of BUILTIN_ALIASES.keys()) expect(/^gpt-3\.5|^claude-[12](\.|-|$)/.test(name)).toBe(false);
  });

  test("messages ids: opus tiers → pro, the rest → flash", () => {
    expect(resolvedId("claude-3-opus-20240229")).toBe("core-v4-pro");
    expect(resolvedId("claude-opus-4-1-20250805")).toBe("core-v4-pro");
    expect(resolvedId("claude-sonnet-4-20250514")).toBe("core-v4-flash");
    expect(resolvedId("claude-3-5-haiku")).toBe("core-v4-flash");
  });

  test("group sizes match the D6.3 table", () => {
    const sizes = Object.fromEntries(BUILTIN_ALIAS_GROUPS.map((g) => [g.family, g.names.length]));
    expect(sizes).toMatchObject({
      chat: 22,
      "chat, top tier": 4,
      "chat, search": 3,
      reasoning: 8,
      "reasoning, deep search": 2,
      "codex-style": 7,
      "messages-style, top tier": 9,
      "messages-style, other": 19,
      "generate-content, pro": 8,
      "generate-content, flash": 11,
      vision: 3,
      "open-weight": 18,
      "open-weight, reasoning": 3,
      "embedding names": 5,
    });
  });
});
