import { describe, expect, test } from "bun:test";
import { loadVectors } from "../helpers/vectors";
import { modelFlags } from "../../src/models/flags";
import { NATIVE_MODEL_IDS, type NativeModelId } from "../../src/models/catalog";

const mapping = loadVectors("model-mapping.json");

describe("modelFlags (core-upstream.md §8.1)", () => {
  for (const m of mapping.canonical_models as { model_id: NativeModelId; model_type: string; thinking_enabled: boolean; search_enabled: boolean }[]) {
    test(`${m.model_id} → ${m.model_type}, thinking ${m.thinking_enabled}, search ${m.search_enabled}`, () => {
      expect(modelFlags(m.model_id)).toEqual({ model_type: m.model_type as any, thinking_enabled: m.thinking_enabled, search_enabled: m.search_enabled });
    });
  }

  test("the vectors cover every native id, in catalog order", () => {
    expect(mapping.canonical_models.map((m: any) => m.model_id)).toEqual([...NATIVE_MODEL_IDS]);
  });

  test("flags are JSON booleans", () => {
    for (const id of NATIVE_MODEL_IDS) {
      const f = modelFlags(id);
      expect(typeof f.thinking_enabled).toBe("boolean");
      expect(typeof f.search_enabled).toBe("boolean");
    }
  });
});
