// Native model → the three flags of core's completion body (core-upstream.md §8.1).
import { baseOf, isNothinking, type BaseModelId, type NativeModelId } from "./catalog";

export type CoreModelType = "default" | "expert" | "vision";

export interface ModelFlags {
  model_type: CoreModelType;
  /** The model's own setting; request options may only turn it off (thinking.ts), never on for -nothinking. */
  thinking_enabled: boolean;
  search_enabled: boolean;
}

const BASE_FLAGS: Record<BaseModelId, { model_type: CoreModelType; search_enabled: boolean }> = {
  "core-v4-flash": { model_type: "default", search_enabled: false },
  "core-v4-pro": { model_type: "expert", search_enabled: false },
  "core-v4-flash-search": { model_type: "default", search_enabled: true },
  "core-v4-pro-search": { model_type: "expert", search_enabled: true },
  "core-v4-vision": { model_type: "vision", search_enabled: false },
};

export function modelFlags(nativeId: NativeModelId): ModelFlags {
  const base = BASE_FLAGS[baseOf(nativeId)];
  return { model_type: base.model_type, thinking_enabled: !isNothinking(nativeId), search_enabled: base.search_enabled };
}
