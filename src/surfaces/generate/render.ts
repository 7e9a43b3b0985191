// Generate-content rendering (gateway.md "Generate-content result" and Events; svcml-and-prompts.md §4.7;
// D7.4, D9.5, D10.6). Function calls carry no ids. With tools (D10.6 as amended) text and thought parts still
// stream as they come; only the functionCall parts are held back and come together in the final chunk.
import { errorBody } from "../../http/errors";
import { GatewayError } from "../../util/gateway-error";
import { dataFrame, KEEPALIVE_BLANK } from "../../http/sse";
import { finishedCalls } from "../../pipeline/collect-turn";
import type { FinishOutcome, TurnEvent, TurnResult, Usage } from "../../pipeline/types";
import type { SyncTransformer } from "../../pipeline/stage";

export interface GenerateMeta {
  responseId: string;
  model: string;
  exposeThinking: boolean;
  /** Thinking was on upstream (thoughtsTokenCount is reported). */
  thinkingOn: boolean;
  toolMode: boolean;
}

export function finishReason(outcome: FinishOutcome): string {
  if (outcome === "length") return "MAX_TOKENS";
  if (outcome === "content_filter") return "SAFETY";
  return "STOP";
}

export function usageMetadata(u: Usage, thinkingOn: boolean) {
  const meta: Record<string, number> = {
    promptTokenCount: u.promptTokens,
    candidatesTokenCount: u.completionTokens - u.reasoningTokens,
    totalTokenCount: u.totalTokens,
  };
  if (thinkingOn) meta.thoughtsTokenCount = u.reasoningTokens;
  return meta;
}

function parseArgs(args: string): unknown {
  try {
    const v = JSON.parse(args);
    return v && typeof v === "object" ? v : {};
  } catch {
    return {};
  }
}

export function renderGenerate(meta: GenerateMeta, result: TurnResult) {
  const parts: Record<string, unknown>[] = [];
  if (meta.exposeThinking && result.thinking) parts.push({ text: result.thinking, thought: true });
  const finished = new Set(finishedCalls(result).map((c) => c.index));
  for (const part of result.parts) {
    if (part.type === "text") {
      const last = parts[parts.length - 1];
      if (last && typeof last.text === "string" && !last.thought) last.text += part.text;
      else if (part.text) parts.push({ text: part.text });
    } else if (finished.has(part.call.index)) parts.push({ functionCall: { name: part.call.name, args: parseArgs(part.call.arguments) } });
  }
  return {
    candidates: [{ content: { role: "model", parts }, finishReason: finishReason(result.outcome), index: 0 }],
    usageMetadata: usageMetadata(result.usage, meta.thinkingOn),
    modelVersion: meta.model,
    responseId: meta.responseId,
  };
}

export function generateStreamStage(meta: GenerateMeta): SyncTransformer<TurnEvent, string> {
  const chunk = (parts: Record<string, unknown>[], extra: Record<string, unknown> = {}) =>
    dataFrame({ candidates: [{ content: { role: "model", parts }, index: 0, ...extra }], modelVersion: meta.model, responseId: meta.responseId });
  const calls = new Map<number, { name: string; args: string; done: boolean }>();
  return {
    transform(e, c) {
      switch (e.type) {
        case "thinking":
          if (meta.exposeThinking) c.enqueue(chunk([{ text: e.text, thought: true }]));
          return;
        case "text":
          // The detector keeps tool markup out of text events, so text streams with tools as without them:
          // a client sees a long answer grow, and the part already written survives a failure of core.
          c.enqueue(chunk([{ text: e.text }]));
          return;
        case "call_start":
          calls.set(e.index, { name: e.name, args: "", done: false });
          return;
        case "call_args": {
          const call = calls.get(e.index);
          if (call) call.args += e.fragment;
          return;
        }
        case "call_end": {
          const call = calls.get(e.index);
          if (call) call.done = true;
          return;
        }
        case "keepalive":
          c.enqueue(KEEPALIVE_BLANK);
          return;
        case "finish": {
          const parts: Record<string, unknown>[] = [];
          for (const [, call] of [...calls].sort((a, b) => a[0] - b[0]))
            if (call.done) parts.push({ functionCall: { name: call.name, args: parseArgs(call.args) } });
          if (parts.length === 0) parts.push({ text: "" });
          c.enqueue(
            dataFrame({
              candidates: [{ content: { role: "model", parts }, finishReason: finishReason(e.outcome), index: 0 }],
              usageMetadata: usageMetadata(e.usage, meta.thinkingOn),
              modelVersion: meta.model,
              responseId: meta.responseId,
            }),
          );
          return;
        }
        case "error": {
          // D4.5 as amended: the same {code, message, status, details:[{reason}]} as the HTTP errors, so the
          // code is machine-readable in the stream too (issue 30 item 5).
          c.enqueue(dataFrame(errorBody("generate", new GatewayError(e.status, e.code, e.message))));
          return;
        }
      }
    },
  };
}

