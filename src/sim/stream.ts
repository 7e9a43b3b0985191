// Core's SSE, written with core's wire habits (core-upstream §7.17, §12.5): a snapshot first, the first token
// of a fragment with an explicit path and op, the rest pathless; a RESPONSE fragment appended with its op and
// continued once with the op omitted (sticky); the usage batch, the status SET, then session events.

export type Piece = string | { sleep: number } | { abort: true };

const j = (o: unknown) => JSON.stringify(o);
const data = (o: unknown) => `data: ${j(o)}\n\n`;
const event = (name: string, o: unknown) => `event: ${name}\ndata: ${j(o)}\n\n`;

export const TIP_TEXT = "本回答由 AI 生成，内容仅供参考，请仔细甄别。";
export const FILTER_TEMPLATE = "你好，这个问题我暂时无法回答，让我们换个话题再聊聊吧。";

/** Words and whitespace runs as separate tokens (core's usual granularity). */
export function tokens(text: string): string[] {
  return text.match(/\s+|[^\s]+/g) ?? [];
}

export interface RoundSpec {
  requestMessageId: number;
  responseMessageId: number;
  modelType: string;
  thinkingEnabled: boolean;
  searchEnabled: boolean;
  clock: () => number;
}

export interface MessageState {
  thinking: string;
  answer: string;
  usage: number;
}

function snapshot(spec: RoundSpec, fragments: unknown[], usage: number) {
  return {
    v: {
      response: {
        message_id: spec.responseMessageId,
        parent_id: spec.requestMessageId,
        model: "",
        role: "ASSISTANT",
        thinking_enabled: spec.thinkingEnabled,
        ban_edit: false,
        ban_regenerate: false,
        status: "WIP",
        incomplete_message: null,
        accumulated_token_usage: usage,
        feedback: null,
        inserted_at: spec.clock(),
        search_enabled: spec.searchEnabled,
        fragments,
        conversation_mode: "DEFAULT",
        has_pending_fragment: false,
        auto_continue: false,
      },
    },
  };
}

function head(spec: RoundSpec): string[] {
  return [
    event("ready", { request_message_id: spec.requestMessageId, response_message_id: spec.responseMessageId, model_type: spec.modelType }),
    event("update_session", { updated_at: spec.clock() }),
  ];
}

function tail(spec: RoundSpec, usage: number, status: "FINISHED" | "INCOMPLETE", title?: string): string[] {
  const out = [
    data({ p: "response", o: "BATCH", v: [{ p: "accumulated_token_usage", v: usage }, { p: "quasi_status", v: status }] }),
    status === "FINISHED" ? data({ p: "response/status", o: "SET", v: "FINISHED" }) : data({ p: "response/status", v: "INCOMPLETE" }),
    event("update_session", { updated_at: spec.clock() }),
  ];
  if (title) out.push(event("title", { content: title }));
  out.push(event("close", { click_behavior: "none", auto_resume: false }));
  return out;
}

export interface Answer {
  thinking: string;
  answer: string;
  usage: number;
  delayMs?: number;
}

/** One complete round: thinking (when any), the answer, a TIP, usage and FINISHED. */
export function answerRound(spec: RoundSpec, a: Answer, opts: { tip?: boolean; status?: "FINISHED" | "INCOMPLETE"; title?: string } = {}): Piece[] {
  const out: Piece[] = [...head(spec)];
  const delay = a.delayMs ? [{ sleep: a.delayMs }] : [];
  let id = 2;
  const think = tokens(a.thinking);
  if (think.length) {
    out.push(data(snapshot(spec, [{ id, type: "THINK", content: think[0], elapsed_secs: null, references: [], stage_id: 1 }], 0)));
    think.slice(1).forEach((t, k) => {
      out.push(...delay);
      out.push(k === 0 ? data({ p: "response/fragments/-1/content", o: "APPEND", v: t }) : data({ v: t }));
    });
    out.push(data({ p: "response/fragments/-1/elapsed_secs", o: "SET", v: 0.5 }));
    id++;
    const ans = tokens(a.answer);
    if (ans.length) {
      out.push(data({ p: "response/fragments", o: "APPEND", v: [{ id, type: "RESPONSE", content: ans[0], references: [], stage_id: 1 }] }));
      ans.slice(1).forEach((t, k) => {
        out.push(...delay);
        out.push(k === 0 ? data({ p: "response/fragments/-1/content", v: t }) : data({ v: t }));
      });
    }
  } else {
    const ans = tokens(a.answer);
    out.push(data(snapshot(spec, ans.length ? [{ id, type: "RESPONSE", content: ans[0], references: [], stage_id: 1 }] : [], 0)));
    ans.slice(1).forEach((t, k) => {
      out.push(...delay);
      out.push(k === 0 ? data({ p: "response/fragments/-1/content", o: "APPEND", v: t }) : data({ v: t }));
    });
  }
  id++;
  if (opts.tip !== false && (a.answer || a.thinking))
    out.push(data({ p: "response/fragments", v: [{ id, type: "TIP", content: TIP_TEXT, style: "WARNING", hide_on_wip: true }] }));
  out.push(...tail(spec, a.usage, opts.status ?? "FINISHED", opts.title));
  return out;
}

/** A continue round: ready, a keep-alive, update_session, the snapshot of the message so far plus `unseen`, then more. */
export function continueRound(spec: RoundSpec, state: MessageState, unseen: string, more: string, finish: "FINISHED" | "INCOMPLETE", usage: number): Piece[] {
  const fragments: unknown[] = [];
  let id = 2;
  if (state.thinking) fragments.push({ id: id++, type: "THINK", content: state.thinking, elapsed_secs: 0.5, references: [], stage_id: 1 });
  fragments.push({ id: id, type: "RESPONSE", content: state.answer + unseen, references: [], stage_id: 0 });
  const out: Piece[] = [head(spec)[0]!, ": \n\n", head(spec)[1]!, data(snapshot(spec, fragments, state.usage))];
  tokens(more).forEach((t, k) => out.push(k === 0 ? data({ p: "response/fragments/-1/content", o: "APPEND", v: t }) : data({ v: t })));
  out.push(...tail(spec, usage, finish));
  return out;
}

export function contentFilterTail(spec: RoundSpec, usage: number): Piece[] {
  return [
    data({ p: "response/fragments", v: [{ id: 90, type: "TIP", content: TIP_TEXT, style: "WARNING", hide_on_wip: true }] }),
    data({ p: "response", o: "BATCH", v: [{ p: "accumulated_token_usage", v: usage }, { p: "quasi_status", v: "FINISHED" }] }),
    ": \n\n",
    data({ v: [{ p: "ban_regenerate", v: true }, { p: "status", v: "CONTENT_FILTER" }, { p: "fragments", v: [{ id: 91, type: "TEMPLATE_RESPONSE", content: FILTER_TEMPLATE }] }, { p: "quasi_status", v: "CONTENT_FILTER" }] }),
    event("finish", {}),
    event("update_session", { updated_at: spec.clock() }),
    event("close", { click_behavior: "none", auto_resume: false }),
  ];
}

export { data, event, head };
