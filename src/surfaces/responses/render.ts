// Responses rendering (gateway.md "Responses" and Events; D10.2 item shapes and reasoning events, which win
// over svcml-and-prompts.md §4.5 where the two differ; §4.5 for ordering and the one-open-item rule).
import { randomHex } from "../../util/random";
import { eventFrame, KEEPALIVE_COMMENT } from "../../http/sse";
import type { FinishOutcome, TurnEvent, TurnResult, Usage } from "../../pipeline/types";
import { customInputOf, type ToolRef } from "./namespace-tools";
import type { StageController, SyncTransformer } from "../../pipeline/stage";

export interface ResponseMeta {
  id: string;
  createdAt: number;
  model: string;
  instructions: string | null;
  tools: unknown[];
  toolChoice: unknown;
  previousResponseId: string | null;
  store: boolean;
  metadata: Record<string, unknown>;
  exposeThinking: boolean;
  /** tool_choice required / forced / required allowed set: an answer without a finished call fails. */
  requireCall: boolean;
  /** A call's name as the client knows it: a namespaced tool's flat name split back into name + namespace. */
  toolRef?: (flatName: string) => ToolRef;
}

export type ResponseItem = Record<string, unknown> & { id: string; type: string };

export interface ResponseObject {
  id: string;
  object: "response";
  created_at: number;
  status: "in_progress" | "completed" | "incomplete" | "failed";
  model: string;
  instructions: string | null;
  output: ResponseItem[];
  output_text: string;
  tools: unknown[];
  tool_choice: unknown;
  parallel_tool_calls: true;
  previous_response_id: string | null;
  store: boolean;
  metadata: Record<string, unknown>;
  usage: ReturnType<typeof responsesUsage> | null;
  error: { code: string; message: string } | null;
  incomplete_details: { reason: string } | null;
}

export function responsesUsage(u: Usage) {
  return {
    input_tokens: u.promptTokens,
    output_tokens: u.completionTokens,
    total_tokens: u.totalTokens,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens_details: { reasoning_tokens: u.reasoningTokens },
  };
}

export const newResponseId = () => `resp_${randomHex(32)}`;

export function baseResponse(meta: ResponseMeta): ResponseObject {
  return {
    id: meta.id,
    object: "response",
    created_at: meta.createdAt,
    status: "in_progress",
    model: meta.model,
    instructions: meta.instructions,
    output: [],
    output_text: "",
    tools: meta.tools,
    tool_choice: meta.toolChoice,
    parallel_tool_calls: true,
    previous_response_id: meta.previousResponseId,
    store: meta.store,
    metadata: meta.metadata,
    usage: null,
    error: null,
    incomplete_details: null,
  };
}

export const TOOL_CHOICE_VIOLATION = "The request requires a tool call (tool_choice), but the answer contained no valid tool call.";

/** Status and details of a finished turn (svcml-and-prompts.md §4.2, D9.5). */
export function finalState(outcome: FinishOutcome): Pick<ResponseObject, "status" | "incomplete_details"> {
  if (outcome === "length") return { status: "incomplete", incomplete_details: { reason: "max_output_tokens" } };
  if (outcome === "content_filter") return { status: "incomplete", incomplete_details: { reason: "content_filter" } };
  return { status: "completed", incomplete_details: null };
}

const reasoningItem = (id: string, text: string): ResponseItem => ({ id, type: "reasoning", summary: [{ type: "summary_text", text }] });
const messageItem = (id: string, text: string, status = "completed"): ResponseItem => ({
  id,
  type: "message",
  role: "assistant",
  status,
  content: [{ type: "output_text", text, annotations: [] }],
});
const callItem = (id: string, callId: string, name: string, args: string, status: string, namespace?: unknown, custom = false): ResponseItem =>
  custom
    ? // A custom (freeform) tool's call carries its raw input, not JSON arguments (issue 16, Codex's exec).
      { id, type: "custom_tool_call", call_id: callId, name, ...(typeof namespace === "string" ? { namespace } : {}), input: customInputOf(args), status }
    : { id, type: "function_call", call_id: callId, name, ...(typeof namespace === "string" ? { namespace } : {}), arguments: args, status };

const refOf = (meta: ResponseMeta, flat: string): ToolRef => meta.toolRef?.(flat) ?? { name: flat };
const isCustom = (item: ResponseItem) => item.type === "custom_tool_call";

/** Non-stream: the whole response object from a collected turn. */
export function renderResponse(meta: ResponseMeta, result: TurnResult): ResponseObject {
  const res = baseResponse(meta);
  if (meta.exposeThinking && result.thinking) res.output.push(reasoningItem(`rs_${randomHex(32)}`, result.thinking));
  for (const part of result.parts) {
    if (part.type === "text") {
      if (part.text.trim()) res.output.push(messageItem(`msg_${randomHex(32)}`, part.text));
    } else {
      const c = part.call;
      const ref = refOf(meta, c.name);
      res.output.push(callItem(`${ref.custom ? "ctc" : "fc"}_${randomHex(32)}`, c.id, ref.name, c.arguments, c.finished ? "completed" : "incomplete", ref.namespace, ref.custom));
    }
  }
  res.output_text = result.text;
  Object.assign(res, finalState(result.outcome));
  res.usage = responsesUsage(result.usage);
  return res;
}

/** Stream: TurnEvents → `event:`/`data:` frames, ending with `data: [DONE]`. `onDone` receives the final object. */
export function responsesStreamStage(meta: ResponseMeta, onUpdate: (res: ResponseObject) => void): SyncTransformer<TurnEvent, string> {
  const res = baseResponse(meta);
  let seq = 0;
  const frame = (type: string, data: Record<string, unknown>) => eventFrame(type, { type, sequence_number: seq++, response_id: meta.id, ...data });

  type Open =
    | { kind: "reasoning"; index: number; item: ResponseItem; text: string }
    | { kind: "message"; index: number; item: ResponseItem; text: string }
    | { kind: "call"; index: number; item: ResponseItem; callIndex: number; args: string };
  let open: Open | null = null;
  const calls = new Map<number, Open & { kind: "call" }>();
  let anyFinishedCall = false;

  const close = (c: StageController<string>) => {
    if (!open) return;
    const o = open;
    open = null;
    if (o.kind === "reasoning") {
      const part = { type: "summary_text", text: o.text };
      c.enqueue(frame("response.reasoning_summary_text.done", { item_id: o.item.id, output_index: o.index, summary_index: 0, text: o.text }));
      c.enqueue(frame("response.reasoning_summary_part.done", { item_id: o.item.id, output_index: o.index, summary_index: 0, part }));
      const item = reasoningItem(o.item.id, o.text);
      res.output[o.index] = item;
      c.enqueue(frame("response.output_item.done", { output_index: o.index, item }));
    } else if (o.kind === "message") {
      const part = { type: "output_text", text: o.text, annotations: [] };
      c.enqueue(frame("response.output_text.done", { item_id: o.item.id, output_index: o.index, content_index: 0, text: o.text }));
      c.enqueue(frame("response.content_part.done", { item_id: o.item.id, output_index: o.index, content_index: 0, part }));
      const item = messageItem(o.item.id, o.text);
      res.output[o.index] = item;
      c.enqueue(frame("response.output_item.done", { output_index: o.index, item }));
    } else {
      // An unfinished call (input ended inside it): no arguments.done, status incomplete.
      const item = callItem(o.item.id, o.item.call_id as string, o.item.name as string, o.args, "incomplete", o.item.namespace, isCustom(o.item));
      res.output[o.index] = item;
      c.enqueue(frame("response.output_item.done", { output_index: o.index, item }));
    }
  };

  const openItem = (c: StageController<string>, o: Open) => {
    close(c);
    open = o;
    res.output.push(o.item);
    c.enqueue(frame("response.output_item.added", { output_index: o.index, item: o.item }));
  };

  const stage: SyncTransformer<TurnEvent, string> = {
    start(c) {
      c.enqueue(frame("response.created", { response: { ...res }, id: meta.id, status: "in_progress" }));
      c.enqueue(frame("response.in_progress", { response: { ...res } }));
      onUpdate(res);
    },
    transform(ev, c) {
      switch (ev.type) {
        case "thinking": {
          if (!meta.exposeThinking) return;
          if (open?.kind !== "reasoning") {
            const id = `rs_${randomHex(32)}`;
            openItem(c, { kind: "reasoning", index: res.output.length, item: { id, type: "reasoning", summary: [] }, text: "" });
            c.enqueue(
              frame("response.reasoning_summary_part.added", {
                item_id: id,
                output_index: open!.index,
                summary_index: 0,
                part: { type: "summary_text", text: "" },
              }),
            );
          }
          const o = open as Open & { kind: "reasoning" };
          o.text += ev.text;
          c.enqueue(frame("response.reasoning_summary_text.delta", { item_id: o.item.id, output_index: o.index, summary_index: 0, delta: ev.text }));
          return;
        }
        case "text": {
          res.output_text += ev.text;
          if (open?.kind !== "message") {
            // Blank text between items does not open a message item (D10.2: only non-blank text).
            if (!ev.text.trim()) return;
            const id = `msg_${randomHex(32)}`;
            openItem(c, { kind: "message", index: res.output.length, item: { id, type: "message", role: "assistant", status: "in_progress", content: [] }, text: "" });
            c.enqueue(
              frame("response.content_part.added", {
                item_id: id,
                output_index: open!.index,
                content_index: 0,
                part: { type: "output_text", text: "", annotations: [] },
              }),
            );
          }
          const o = open as Open & { kind: "message" };
          o.text += ev.text;
          c.enqueue(frame("response.output_text.delta", { item_id: o.item.id, output_index: o.index, content_index: 0, delta: ev.text }));
          return;
        }
        case "call_start": {
          const ref = refOf(meta, ev.name);
          const item = callItem(`${ref.custom ? "ctc" : "fc"}_${randomHex(32)}`, ev.id, ref.name, "", "in_progress", ref.namespace, ref.custom);
          const o = { kind: "call" as const, index: res.output.length, item, callIndex: ev.index, args: "" };
          openItem(c, o);
          calls.set(ev.index, o);
          return;
        }
        case "call_args": {
          const o = calls.get(ev.index);
          if (!o) return;
          o.args += ev.fragment;
          // A custom call's input is known only once its JSON arguments are complete: it goes out at call_end.
          if (isCustom(o.item)) return;
          c.enqueue(
            frame("response.function_call_arguments.delta", { item_id: o.item.id, output_index: o.index, call_id: o.item.call_id, delta: ev.fragment }),
          );
          return;
        }
        case "call_end": {
          const o = calls.get(ev.index);
          if (!o) return;
          anyFinishedCall = true;
          if (isCustom(o.item)) {
            const input = customInputOf(o.args);
            c.enqueue(frame("response.custom_tool_call_input.delta", { item_id: o.item.id, output_index: o.index, call_id: o.item.call_id, delta: input }));
            c.enqueue(frame("response.custom_tool_call_input.done", { item_id: o.item.id, output_index: o.index, call_id: o.item.call_id, input }));
          } else {
            c.enqueue(
              frame("response.function_call_arguments.done", {
                item_id: o.item.id,
                output_index: o.index,
                call_id: o.item.call_id,
                name: o.item.name,
                arguments: o.args,
              }),
            );
          }
          const item = callItem(o.item.id, o.item.call_id as string, o.item.name as string, o.args, "completed", o.item.namespace, isCustom(o.item));
          res.output[o.index] = item;
          c.enqueue(frame("response.output_item.done", { output_index: o.index, item }));
          if (open === o) open = null;
          return;
        }
        case "keepalive":
          c.enqueue(KEEPALIVE_COMMENT);
          return;
        case "finish": {
          close(c);
          res.usage = responsesUsage(ev.usage);
          if (meta.requireCall && !anyFinishedCall) {
            fail(c, "tool_choice_violation", TOOL_CHOICE_VIOLATION);
            return;
          }
          Object.assign(res, finalState(ev.outcome));
          onUpdate(res);
          c.enqueue(frame(res.status === "completed" ? "response.completed" : "response.incomplete", { response: res }));
          c.enqueue("data: [DONE]\n\n");
          return;
        }
        case "error":
          close(c);
          fail(c, ev.code, ev.message);
          return;
      }
    },
  };
  return stage;

  function fail(c: StageController<string>, code: string, message: string) {
    res.status = "failed";
    res.error = { code, message };
    onUpdate(res);
    c.enqueue(frame("response.failed", { response: res }));
    c.enqueue("data: [DONE]\n\n");
  }
}

