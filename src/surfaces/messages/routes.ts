// Messages protocol (gateway.md "Messages protocol"; svcml-and-prompts.md §3.5, §4.6; D10.5).
// Paths: /msgapi/v1/messages and the shortcuts /v1/messages and /messages, plus count_tokens on each.
import { publicDoc } from "../public-docs";
import type { AppContext } from "../../context";
import type { BusinessApp } from "../../http/business-edge";
import { GatewayError } from "../../util/gateway-error";
import { json } from "../../http/json-response";
import { KEEPALIVE_PING } from "../../http/sse";
import { resolveModel } from "../../models/resolve";
import { coalesceStage } from "../../pipeline/coalesce";
import { estimateTokens } from "../../pipeline/token-estimate";
import { buildPrompt } from "../../prompt/build";
import { randomHex } from "../../util/random";
import { prepareTurn, turnResult, turnSse } from "../business-turn";
import { messagesJsonOutput, normalizeMessages } from "./normalize";
import { startTurnWithJsonOutput } from "../json-output-service";
import { messagesStreamStage, renderMessage } from "./render";
import { CountTokensBody, MessagesBody } from "./schema";

const DEFAULT_MAX_TOKENS = 8192;

export function messagesRoutes(app: BusinessApp, ctx: AppContext): void {
  for (const base of ["/msgapi/v1/messages", "/v1/messages", "/messages"]) {
    app.post(
      base,
      async ({ request, body, caller, reqState }) => {
        // max_tokens is supplied when absent and never used to cut output (gateway.md Limits).
        const withMax = body.max_tokens === undefined ? { ...body, max_tokens: DEFAULT_MAX_TOKENS } : body;
        const turn = prepareTurn(ctx, reqState, withMax, "messages", normalizeMessages(withMax));
        const running = await startTurnWithJsonOutput(ctx, request, reqState, caller, { ...turn, jsonOutput: messagesJsonOutput(withMax) });
        const meta = {
          id: `msg_${randomHex(24)}`,
          model: turn.requestedModel,
          exposeThinking: turn.exposeThinking,
          promptTokens: running.promptTokens,
          declaredTools: turn.tools.map((t) => t.name),
        };
        if (turn.stream) {
          return turnSse(running, { keepAlive: KEEPALIVE_PING, meter: reqState }, coalesceStage(), messagesStreamStage(meta));
        }
        return json(renderMessage(meta, await turnResult(running)));
      },
      { ...publicDoc("messages"), business: true, body: MessagesBody },
    );

    // D10.5: the local estimate over system, messages and tools; validates the model; contacts no core account.
    app.post(
      `${base}/count_tokens`,
      ({ body, reqState }) => {
        const resolved = resolveModel(body.model, ctx.config.get().model_aliases);
        if (!resolved.ok) throw new GatewayError(400, resolved.code, resolved.message, { param: "model" });
        const turn = prepareTurn(ctx, reqState, body, "messages", normalizeMessages(body));
        const built = buildPrompt(turn, { currentInputFile: { enabled: false, min_chars: 0 } });
        const inlineBytes = turn.files.reduce((n, f) => n + f.data.byteLength, 0);
        return json({ input_tokens: estimateTokens(built.prompt) + Math.floor(inlineBytes / 3) });
      },
      { ...publicDoc("countTokens"), business: true, body: CountTokensBody },
    );
  }
}
