// The native model catalog (D6.1) and the two foreign-protocol model lists (D6.6, D6.7).
// Pure data plus tiny builders; resolution lives in resolve.ts.

/** The ten native ids, in the order every list shows them (D6.1). */
export const NATIVE_MODEL_IDS = [
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
] as const;

export type NativeModelId = (typeof NATIVE_MODEL_IDS)[number];

/** The five thinking-capable base models; each has a `-nothinking` twin. */
export const BASE_MODEL_IDS = ["core-v4-flash", "core-v4-pro", "core-v4-flash-search", "core-v4-pro-search", "core-v4-vision"] as const;

export type BaseModelId = (typeof BASE_MODEL_IDS)[number];

export const NOTHINKING_SUFFIX = "-nothinking";

/** 2026-01-01T00:00:00Z: a fixed date so model lists are byte-stable across restarts. */
export const MODEL_CREATED_UNIX = 1767225600;
export const MODEL_CREATED_ISO = "2026-01-01T00:00:00Z";
export const MODEL_OWNER = "core";

const NATIVE_SET: ReadonlySet<string> = new Set(NATIVE_MODEL_IDS);

export function isNativeModelId(id: string): id is NativeModelId {
  return NATIVE_SET.has(id);
}

export function isNothinking(id: string): boolean {
  return id.endsWith(NOTHINKING_SUFFIX);
}

/** The `-nothinking` twin of a native id (idempotent). */
export function toNothinking(id: NativeModelId): NativeModelId {
  return (isNothinking(id) ? id : `${id}${NOTHINKING_SUFFIX}`) as NativeModelId;
}

/** The base model of a native id (strips `-nothinking`). */
export function baseOf(id: NativeModelId): BaseModelId {
  return (isNothinking(id) ? id.slice(0, -NOTHINKING_SUFFIX.length) : id) as BaseModelId;
}

export interface NativeModelObject {
  id: NativeModelId;
  object: "model";
  created: number;
  owned_by: string;
  permission: never[];
}

export function nativeModelObject(id: NativeModelId): NativeModelObject {
  return { id, object: "model", created: MODEL_CREATED_UNIX, owned_by: MODEL_OWNER, permission: [] };
}

export function nativeModelObjects(): NativeModelObject[] {
  return NATIVE_MODEL_IDS.map(nativeModelObject);
}

/**
 * The 25 messages-protocol ids of D6.6, in list order. The lists show each immediately followed by
 * its `-nothinking` variant; aliases.ts derives the built-in targets from the same data.
 */
export const MESSAGES_MODEL_IDS = [
  // current
  "claude-opus-4-6",
  "claude-sonnet-4-6",
  "claude-haiku-4-5",
  // snapshots and earlier aliases
  "claude-opus-4-5",
  "claude-opus-4-5-20251101",
  "claude-sonnet-4-5",
  "claude-sonnet-4-5-20250929",
  "claude-haiku-4-5-20251001",
  "claude-opus-4-1",
  "claude-opus-4-1-20250805",
  "claude-opus-4-0",
  "claude-opus-4-20250514",
  "claude-sonnet-4-0",
  "claude-sonnet-4-20250514",
  // older generation
  "claude-3-7-sonnet-latest",
  "claude-3-7-sonnet-20250219",
  "claude-3-5-sonnet-latest",
  "claude-3-5-sonnet-20241022",
  "claude-3-5-sonnet-20240620",
  "claude-3-5-haiku-latest",
  "claude-3-5-haiku-20241022",
  "claude-3-opus-latest",
  "claude-3-opus-20240229",
  "claude-3-sonnet-20240229",
  "claude-3-haiku-20240307",
] as const;

/** The 50 listed messages-protocol ids: each id then its `-nothinking` variant (D6.6). */
export function messagesListedIds(): string[] {
  return MESSAGES_MODEL_IDS.flatMap((id) => [id, `${id}${NOTHINKING_SUFFIX}`]);
}

/** Methods every generate-content model object advertises (D6.7). */
export const GENERATE_CONTENT_METHODS = ["generateContent", "streamGenerateContent", "countTokens"] as const;

export interface GenerateContentModelObject {
  name: string;
  displayName: string;
  supportedGenerationMethods: string[];
}

export function generateContentModelObject(id: NativeModelId): GenerateContentModelObject {
  return { name: `models/${id}`, displayName: id, supportedGenerationMethods: [...GENERATE_CONTENT_METHODS] };
}

export function generateContentModelList(): { models: GenerateContentModelObject[] } {
  return { models: NATIVE_MODEL_IDS.map(generateContentModelObject) };
}
