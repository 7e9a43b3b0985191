// The built-in alias set of D6.3, as data. Principle: a family's top or reasoning tier → core-v4-pro,
// everything else → core-v4-flash; search, deep-research and vision names go to their matching variant.
// Every name here also resolves with `-nothinking` (resolve.ts, D6.2 step 3); retired names are never
// listed (D6.2: only a configured alias may revive one).
import { MESSAGES_MODEL_IDS, type NativeModelId } from "./catalog";

interface AliasGroup {
  family: string;
  target: NativeModelId;
  names: readonly string[];
}

// claude-opus-* and claude-3-opus-* are the messages family's top tier (D6.3).
const isOpusTier = (id: string) => id.startsWith("claude-opus-") || id.startsWith("claude-3-opus-");

export const BUILTIN_ALIAS_GROUPS: readonly AliasGroup[] = [
  {
    family: "chat",
    target: "core-v4-flash",
    names: [
      "gpt-4", "gpt-4-turbo", "gpt-4-turbo-preview", "gpt-4o", "gpt-4o-mini", "chatgpt-4o-latest",
      "gpt-4.1", "gpt-4.1-mini", "gpt-4.1-nano", "gpt-4.5-preview", "gpt-5", "gpt-5-mini", "gpt-5-nano",
      "gpt-5-chat-latest", "gpt-5.1", "gpt-5.1-chat-latest", "gpt-5.2", "gpt-5.2-chat-latest", "gpt-5.4",
      "gpt-5.4-mini", "gpt-5.4-nano", "gpt-5.5",
    ],
  },
  { family: "chat, top tier", target: "core-v4-pro", names: ["gpt-5-pro", "gpt-5.2-pro", "gpt-5.4-pro", "gpt-5.5-pro"] },
  {
    family: "chat, search",
    target: "core-v4-flash-search",
    names: ["gpt-4o-search-preview", "gpt-4o-mini-search-preview", "gpt-5-search-api"],
  },
  {
    family: "reasoning",
    target: "core-v4-pro",
    names: ["o1", "o1-mini", "o1-preview", "o1-pro", "o3", "o3-mini", "o3-pro", "o4-mini"],
  },
  { family: "reasoning, deep search", target: "core-v4-pro-search", names: ["o3-deep-research", "o4-mini-deep-research"] },
  {
    family: "codex-style",
    target: "core-v4-pro",
    names: [
      "codex-mini-latest", "gpt-5-codex", "gpt-5.1-codex", "gpt-5.1-codex-mini", "gpt-5.1-codex-max",
      "gpt-5.2-codex", "gpt-5.3-codex",
    ],
  },
  { family: "messages-style, top tier", target: "core-v4-pro", names: MESSAGES_MODEL_IDS.filter(isOpusTier) },
  {
    family: "messages-style, other",
    target: "core-v4-flash",
    names: [...MESSAGES_MODEL_IDS.filter((id) => !isOpusTier(id)), "claude-3-7-sonnet", "claude-3-5-sonnet", "claude-3-5-haiku"],
  },
  {
    family: "generate-content, pro",
    target: "core-v4-pro",
    names: [
      "gemini-pro", "gemini-pro-latest", "gemini-1.5-pro", "gemini-2.5-pro", "gemini-3-pro", "gemini-3-pro-preview",
      "gemini-3.1-pro", "gemini-3.1-pro-preview",
    ],
  },
  {
    family: "generate-content, flash",
    target: "core-v4-flash",
    names: [
      "gemini-flash-latest", "gemini-flash-lite-latest", "gemini-1.5-flash", "gemini-1.5-flash-8b", "gemini-2.0-flash",
      "gemini-2.0-flash-lite", "gemini-2.5-flash", "gemini-2.5-flash-lite", "gemini-3-flash", "gemini-3-flash-preview",
      "gemini-3.1-flash-lite",
    ],
  },
  { family: "vision", target: "core-v4-vision", names: ["gemini-pro-vision", "qwen-vl-max", "llama-3.2-90b-vision-instruct"] },
  {
    family: "open-weight",
    target: "core-v4-flash",
    names: [
      "llama-3.1-8b-instruct", "llama-3.1-70b-instruct", "llama-3.1-405b-instruct", "llama-3.3-70b-instruct",
      "llama-4-scout", "llama-4-maverick", "qwen-max", "qwen-plus", "qwen-turbo", "qwen3-235b-a22b", "qwen3-coder",
      "mistral-large-latest", "mistral-medium-latest", "mistral-small-latest", "mixtral-8x7b-instruct", "gemma-3-27b-it",
      "gpt-oss-20b", "gpt-oss-120b",
    ],
  },
  {
    family: "open-weight, reasoning",
    target: "core-v4-pro",
    names: ["qwq-32b", "magistral-medium-latest", "magistral-small-latest"],
  },
  {
    family: "embedding names",
    target: "core-v4-flash",
    names: ["text-embedding-3-small", "text-embedding-3-large", "text-embedding-ada-002", "text-embedding-004", "gemini-embedding-001"],
  },
];

function buildMap(): ReadonlyMap<string, NativeModelId> {
  const map = new Map<string, NativeModelId>();
  for (const group of BUILTIN_ALIAS_GROUPS) {
    for (const name of group.names) {
      // A name in two groups would make the table ambiguous; fail at import so a bad edit cannot ship.
      if (map.has(name)) throw new Error(`built-in alias ${name} is listed twice`);
      map.set(name, group.target);
    }
  }
  return map;
}

/** Built-in alias name (lower-case) → native id. */
export const BUILTIN_ALIASES: ReadonlyMap<string, NativeModelId> = buildMap();
