// POST /v1/chat/completions and its root alias (gateway.md "Chat completions"; svcml-and-prompts.md §3.3, §4.4).
import { publicDoc } from "../public-docs";
import type { AppContext } from "../../context";
import type { BusinessApp } from "../../http/business-edge";
import { json } from "../../http/json-response";
import { KEEPALIVE_COMMENT } from "../../http/sse";
import { coalesceStage } from "../../pipeline/coalesce";
import { randomHex } from "../../util/random";
import { prepareTurn, turnResult, turnSse } from "../business-turn";
import { chatJsonOutput, normalizeChat } from "./normalize";
import { startTurnWithJsonOutput } from "../json-output-service";
import { chatStreamStage, renderChatCompletion } from "./render";
import { ChatBody } from "./schema";

export function chatRoutes(app: BusinessApp, ctx: AppContext): void {
  for (const base of ["/v1", ""])
    app.post(
      `${base}/chat/completions`,
      async ({ request, body, caller, reqState }) => {
        const turn = prepareTurn(ctx, reqState, body, "chat", normalizeChat(body));
        const running = await startTurnWithJsonOutput(ctx, request, reqState, caller, { ...turn, jsonOutput: chatJsonOutput(body) });
        const meta = {
          id: `chatcmpl-${running.sessionId || randomHex(24)}`,
          created: Math.floor(ctx.now() / 1000),
          model: turn.requestedModel,
          exposeThinking: turn.exposeThinking,
        };
        if (turn.stream) {
          return turnSse(running, { keepAlive: KEEPALIVE_COMMENT, meter: reqState }, coalesceStage(), chatStreamStage(meta));
        }
        const result = await turnResult(running);
        return json(renderChatCompletion(meta, result));
      },
      { ...publicDoc("chat"), business: true, body: ChatBody },
    );
}
