// The simulator's own view of one assistant message (core-upstream §7.5, §7.6, §12.5): the fragments and
// response fields as the emitted patches leave them. It is updated by the writer step by step (never by
// re-parsing the output), and its serialised form is the snapshot that opens every round.

export const TIP_TEXT = "本回答由 AI 生成，内容仅供参考，请仔细甄别。";
export const FILTER_TEMPLATE = "你好，这个问题我暂时无法回答，让我们换个话题再聊聊吧。";

export type Fragment = Record<string, any> & { id: number; type: string };

export interface MessageModel {
  requestMessageId: number;
  responseMessageId: number;
  modelType: string;
  thinkingEnabled: boolean;
  searchEnabled: boolean;
  insertedAt: number;
  fragments: Fragment[];
  usage: number;
  status: string;
  quasiStatus: string | null;
  banRegenerate: boolean;
  autoContinue: boolean;
  searchRan: boolean;
  nextId: number;
  /** Fragment ids of TOOL_SEARCH and TOOL_OPEN fragments in creation order, for `open` and `cite`. */
  searches: number[];
  opens: number[];
}

export function newMessage(init: Pick<MessageModel, "requestMessageId" | "responseMessageId" | "modelType" | "thinkingEnabled" | "searchEnabled">): MessageModel {
  return { ...init, insertedAt: 0, fragments: [], usage: 0, status: "WIP", quasiStatus: null, banRegenerate: false, autoContinue: false, searchRan: false, nextId: 2, searches: [], opens: [] };
}

/** The `{"v":{"response":…}}` payload, in core's field order for the older or newer field set. */
export function snapshotPayload(m: MessageModel, shape: "older" | "newer"): { v: { response: Record<string, unknown> } } {
  const r: Record<string, unknown> = {
    message_id: m.responseMessageId,
    parent_id: m.requestMessageId,
    model: "",
    role: "ASSISTANT",
    thinking_enabled: m.thinkingEnabled,
    ban_edit: false,
    ban_regenerate: m.banRegenerate,
    // Every snapshot says WIP, a continue snapshot included (§7.5).
    status: "WIP",
    incomplete_message: null,
    accumulated_token_usage: m.usage,
  };
  if (shape === "older") r.files = [];
  r.feedback = null;
  r.inserted_at = m.insertedAt;
  r.search_enabled = m.searchEnabled;
  r.fragments = m.fragments;
  if (shape === "newer") r.conversation_mode = m.searchRan ? "DEEP_SEARCH" : "DEFAULT";
  r.has_pending_fragment = false;
  r.auto_continue = m.autoContinue;
  if (shape === "older") r.search_triggered = m.searchRan;
  return { v: { response: r } };
}

/** Visible answer text of the message (RESPONSE fragments), for usage estimates and tests. */
export function answerText(m: MessageModel): string {
  return m.fragments
    .filter((f) => f.type === "RESPONSE")
    .map((f) => String(f.content ?? ""))
    .join("");
}
