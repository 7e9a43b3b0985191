import { describe, expect, test } from "bun:test";
import {
  generateContentModelList,
  MESSAGES_MODEL_IDS,
  nativeModelObject,
  nativeModelObjects,
  NATIVE_MODEL_IDS,
} from "../../src/models/catalog";
import { messagesModelItem, messagesModelList } from "../../src/models/messages-list";

describe("native catalog (D6.1)", () => {
  test("ten ids in the fixed order", () => {
    expect([...NATIVE_MODEL_IDS]).toEqual([
      "core-v4-flash",
      "core-v4-flash-nothinking",
      "core-v4-pro",
      "core-v4-pro-nothinking",
      "core-v4-flash-search",
      "core-v4-flash-search-nothinking",
      "core-v4-pro-search",
      "core-v4-pro-search-nothinking",
      "core-v4-vision",
      "core-v4-vision-nothinking",
    ]);
  });

  test("model objects carry created, owned_by and an empty permission list", () => {
    expect(nativeModelObject("core-v4-pro")).toEqual({ id: "core-v4-pro", object: "model", created: 1767225600, owned_by: "core", permission: [] });
    expect(nativeModelObjects().map((m) => m.id)).toEqual([...NATIVE_MODEL_IDS]);
  });
});

describe("messages-protocol list (D6.6)", () => {
  test("25 ids, 50 entries, each id followed by its -nothinking variant", () => {
    expect(MESSAGES_MODEL_IDS.length).toBe(25);
    const list = messagesModelList();
    expect(list.data.length).toBe(50);
    for (let i = 0; i < 50; i += 2) expect(list.data[i + 1]!.id).toBe(`${list.data[i]!.id}-nothinking`);
    expect(list.first_id).toBe("claude-opus-4-6");
    expect(list.last_id).toBe("claude-3-haiku-20240307-nothinking");
    expect(list.has_more).toBe(false);
  });

  test("items show the native id they resolve to", () => {
    const list = messagesModelList();
    expect(list.data[0]).toEqual({
      id: "claude-opus-4-6",
      object: "model",
      type: "model",
      created: 1767225600,
      created_at: "2026-01-01T00:00:00Z",
      owned_by: "core",
      display_name: "claude-opus-4-6 → core-v4-pro",
    });
    expect(list.data[1]!.display_name).toBe("claude-opus-4-6-nothinking → core-v4-pro-nothinking");
    expect(list.data[2]!.display_name).toBe("claude-sonnet-4-6 → core-v4-flash");
  });

  test("a configured alias retargets the display name", () => {
    expect(messagesModelList({ "claude-sonnet-4-6": "core-v4-pro" }).data[2]!.display_name).toBe("claude-sonnet-4-6 → core-v4-pro");
  });

  test("one item by id, null for an unlisted id", () => {
    expect(messagesModelItem("claude-haiku-4-5-nothinking")?.display_name).toBe("claude-haiku-4-5-nothinking → core-v4-flash-nothinking");
    expect(messagesModelItem("claude-opus-9")).toBeNull();
    expect(messagesModelItem("gpt-4o")).toBeNull();
  });
});

describe("generate-content list (D6.7)", () => {
  test("one entry per native id with the three methods", () => {
    const { models } = generateContentModelList();
    expect(models.length).toBe(10);
    expect(models[0]).toEqual({
      name: "models/core-v4-flash",
      displayName: "core-v4-flash",
      supportedGenerationMethods: ["generateContent", "streamGenerateContent", "countTokens"],
    });
  });
});
