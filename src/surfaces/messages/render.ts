// Messages-protocol rendering (gateway.md "Messages-protocol message" and Events; svcml-and-prompts.md §4.6;
// D7.4, D9.5, D10.5). Rendered natively from TurnEvents.
import { statusRow } from "../../http/errors";
import { GatewayError } from "../../util/gateway-error";
import { eventFrame, KEEPALIVE_PING } from "../../http/sse";
import { finishedCalls } from "../../pipeline/collect-turn";
import type { FinishOutcome, TurnEvent, TurnResult } from "../../pipeline/types";
import type { StageController, SyncTransformer } from "../../pipeline/stage";

export interface MessagesMeta {
  id: string;
  model: string;
  exposeThinking: boolean;
  promptTokens: number;
  /** Declared tool names: a call name matching one case-insensitively is given in the declared spelling. */
  declaredTools: string[];
}

export function stopReason(outcome: FinishOutcome): string {
  switch (outcome) {
    case "tool_calls":
      return "tool_use";
    case "length":
      return "max_tokens";
    case "content_filter":
      return "refusal";
    default:
      return "end_turn";
  }
}

export function declaredName(meta: MessagesMeta, name: string): string {
  const lower = name.toLowerCase();
  return meta.declaredTools.find((t) => t.toLowerCase() === lower) ?? name;
}

function parseInput(args: string): unknown {
  try {
    const v = JSON.parse(args);
    return v && typeof v === "object" && !Array.isArray(v) ? v : {};
  } catch {
    return {};
  }
}

export function renderMessage(meta: MessagesMeta, result: TurnResult) {
  const content: Record<string, unknown>[] = [];
  if (meta.exposeThinking && result.thinking) content.push({ type: "thinking", thinking: result.thinking, signature: "" });
  const finished = new Set(finishedCalls(result).map((c) => c.index));
  for (const part of result.parts) {
    if (part.type === "text") {
      const last = content[content.length - 1];
      if (last?.type === "text") last.text = (last.text as string) + part.text;
      else if (part.text) content.push({ type: "text", text: part.text });
    } else if (finished.has(part.call.index)) {
      content.push({ type: "tool_use", id: part.call.id, name: declaredName(meta, part.call.name), input: parseInput(part.call.arguments) });
    }
  }
  return {
    id: meta.id,
    type: "message",
    role: "assistant",
    model: meta.model,
    content,
    stop_reason: stopReason(result.outcome),
    stop_sequence: null,
    usage: { input_tokens: result.usage.promptTokens, output_tokens: result.usage.completionTokens },
  };
}

export function messagesStreamStage(meta: MessagesMeta): SyncTransformer<TurnEvent, string> {
  let blockIndex = -1;
  let open: "thinking" | "text" | "tool_use" | null = null;
  const ev = (name: string, data: Record<string, unknown>) => eventFrame(name, { type: name, ...data });
  const close = (c: StageController<string>) => {
    if (open === null) return;
    c.enqueue(ev("content_block_stop", { index: blockIndex }));
    open = null;
  };
  const start = (c: StageController<string>, kind: "thinking" | "text" | "tool_use", block: Record<string, unknown>) => {
    close(c);
    blockIndex++;
    open = kind;
    c.enqueue(ev("content_block_start", { index: blockIndex, content_block: block }));
  };
  return {
    start(c) {
      c.enqueue(
        ev("message_start", {
          message: {
            id: meta.id,
            type: "message",
            role: "assistant",
            model: meta.model,
            content: [],
            stop_reason: null,
            stop_sequence: null,
            usage: { input_tokens: meta.promptTokens, output_tokens: 0 },
          },
        }),
      );
      c.enqueue(ev("ping", {}));
    },
    transform(e, c) {
      switch (e.type) {
        case "thinking":
          if (!meta.exposeThinking) return;
          if (open !== "thinking") start(c, "thinking", { type: "thinking", thinking: "", signature: "" });
          c.enqueue(ev("content_block_delta", { index: blockIndex, delta: { type: "thinking_delta", thinking: e.text } }));
          return;
        case "text":
          if (open !== "text") {
            if (!e.text.trim() && open !== null) return;
            start(c, "text", { type: "text", text: "" });
          }
          c.enqueue(ev("content_block_delta", { index: blockIndex, delta: { type: "text_delta", text: e.text } }));
          return;
        case "call_start":
          start(c, "tool_use", { type: "tool_use", id: e.id, name: declaredName(meta, e.name), input: {} });
          return;
        case "call_args":
          if (open === "tool_use") c.enqueue(ev("content_block_delta", { index: blockIndex, delta: { type: "input_json_delta", partial_json: e.fragment } }));
          return;
        case "call_end":
          close(c);
          return;
        case "keepalive":
          c.enqueue(KEEPALIVE_PING);
          return;
        case "finish":
          close(c);
          c.enqueue(
            ev("message_delta", {
              delta: { stop_reason: stopReason(e.outcome), stop_sequence: null },
              usage: { input_tokens: e.usage.promptTokens, output_tokens: e.usage.completionTokens },
            }),
          );
          c.enqueue(ev("message_stop", {}));
          return;
        case "error": {
          close(c);
          const err = new GatewayError(e.status, e.code, e.message);
          c.enqueue(eventFrame("error", { type: "error", error: { type: statusRow(err.status).messages, message: err.message, code: err.code } }));
          return;
        }
      }
    },
  };
}

