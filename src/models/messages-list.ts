// The messages-protocol model list (D6.6): fixed foreign ids shown with the native id they resolve to.
import { MODEL_CREATED_ISO, MODEL_CREATED_UNIX, MODEL_OWNER, messagesListedIds } from "./catalog";
import { normaliseModelName, resolveModel, type ModelAliases } from "./resolve";

export interface MessagesModelItem {
  id: string;
  object: "model";
  type: "model";
  created: number;
  created_at: string;
  owned_by: string;
  display_name: string;
}

export interface MessagesModelList {
  data: MessagesModelItem[];
  first_id: string;
  last_id: string;
  has_more: false;
}

function item(id: string, aliases: ModelAliases): MessagesModelItem {
  const r = resolveModel(id, aliases);
  // Every listed id is a built-in alias, so this only fails if a configured alias breaks it.
  const target = r.ok ? r.id : "unavailable";
  return {
    id,
    object: "model",
    type: "model",
    created: MODEL_CREATED_UNIX,
    created_at: MODEL_CREATED_ISO,
    owned_by: MODEL_OWNER,
    display_name: `${id} → ${target}`,
  };
}

/** Configured aliases may retarget listed names, so the display names follow them. */
export function messagesModelList(aliases?: ModelAliases): MessagesModelList {
  const data = messagesListedIds().map((id) => item(id, aliases));
  return { data, first_id: data[0]!.id, last_id: data[data.length - 1]!.id, has_more: false };
}

/** One listed item, or null (→ 404 model_not_found) for an id that is not in the list. */
export function messagesModelItem(id: string, aliases?: ModelAliases): MessagesModelItem | null {
  const n = normaliseModelName(id);
  return messagesListedIds().includes(n) ? item(n, aliases) : null;
}
