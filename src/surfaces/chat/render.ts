// Chat-completions rendering (gateway.md "Chat completion", svcml-and-prompts.md §4.4, D4.5).
import { errorBody } from "../../http/errors";
import { GatewayError } from "../../util/gateway-error";
import { dataFrame, KEEPALIVE_COMMENT } from "../../http/sse";
import { finishedCalls } from "../../pipeline/collect-turn";
import type { TurnEvent, TurnResult, Usage } from "../../pipeline/types";
import type { StageController, SyncTransformer } from "../../pipeline/stage";

export interface ChatMeta {
  id: string;
  created: number;
  model: string;
  /** Thinking is on and shown (reasoning_content). */
  exposeThinking: boolean;
}

export function chatUsage(u: Usage) {
  return {
    prompt_tokens: u.promptTokens,
    completion_tokens: u.completionTokens,
    total_tokens: u.totalTokens,
    completion_tokens_details: { reasoning_tokens: u.reasoningTokens },
  };
}

export function renderChatCompletion(meta: ChatMeta, result: TurnResult) {
  const calls = finishedCalls(result);
  const message: Record<string, unknown> = { role: "assistant", content: calls.length ? null : result.text };
  if (meta.exposeThinking) message.reasoning_content = result.thinking;
  if (calls.length)
    message.tool_calls = calls.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: c.arguments } }));
  return {
    id: meta.id,
    object: "chat.completion",
    created: meta.created,
    model: meta.model,
    choices: [{ index: 0, message, finish_reason: result.outcome }],
    usage: chatUsage(result.usage),
  };
}

/** TurnEvent → SSE text of chat.completion.chunk frames, ending with `data: [DONE]`. */
export function chatStreamStage(meta: ChatMeta): SyncTransformer<TurnEvent, string> {
  return new ChatStreamRenderer(meta);
}

/** A class, not closures over `meta` (issue 35): an open stream keeps its renderer, whose methods are shared. */
class ChatStreamRenderer implements SyncTransformer<TurnEvent, string> {
  constructor(private readonly meta: ChatMeta) {}

  private chunk(delta: Record<string, unknown>): string {
    const meta = this.meta;
    return dataFrame({
      id: meta.id,
      object: "chat.completion.chunk",
      created: meta.created,
      model: meta.model,
      choices: [{ index: 0, delta, finish_reason: null }],
    });
  }

  start(c: StageController<string>): void {
    c.enqueue(this.chunk({ role: "assistant", content: "" }));
  }

  transform(ev: TurnEvent, c: StageController<string>): void {
    const meta = this.meta;
    switch (ev.type) {
      case "thinking":
        if (meta.exposeThinking) c.enqueue(this.chunk({ reasoning_content: ev.text }));
        return;
      case "text":
        c.enqueue(this.chunk({ content: ev.text }));
        return;
      case "call_start":
        c.enqueue(this.chunk({ tool_calls: [{ index: ev.index, id: ev.id, type: "function", function: { name: ev.name, arguments: "" } }] }));
        return;
      case "call_args":
        c.enqueue(this.chunk({ tool_calls: [{ index: ev.index, function: { arguments: ev.fragment } }] }));
        return;
      case "call_end":
        return;
      case "keepalive":
        c.enqueue(KEEPALIVE_COMMENT);
        return;
      case "finish":
        c.enqueue(
          dataFrame({
            id: meta.id,
            object: "chat.completion.chunk",
            created: meta.created,
            model: meta.model,
            choices: [{ index: 0, delta: {}, finish_reason: ev.outcome }],
            usage: chatUsage(ev.usage),
          }),
        );
        c.enqueue("data: [DONE]\n\n");
        return;
      case "error": {
        const body = errorBody("chat", new GatewayError(ev.status, ev.code, ev.message)) as { error: object };
        c.enqueue(dataFrame(body));
        c.enqueue("data: [DONE]\n\n");
        return;
      }
    }
  }
}

