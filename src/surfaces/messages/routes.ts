// Messages protocol (gateway.md "Messages protocol"; svcml-and-prompts.md §3.5, §4.6; D10.5).
// Paths: /msgapi/v1/messages and the shortcuts /v1/messages and /messages, plus count_tokens on each.
import type { AppContext } from "../../context";
import { authenticateBusiness } from "../../http/business-auth";
import { BUSINESS_BODY_LIMIT, readJsonObject } from "../../http/body";
import { GatewayError } from "../../http/errors";
import { requestState } from "../../http/request-state";
import { KEEPALIVE_PING, sseResponse } from "../../http/sse";
import { resolveModel } from "../../models/resolve";
import { collectTurn } from "../../pipeline/collect-turn";
import { coalesceDeltas } from "../../pipeline/coalesce";
import { estimateTokens } from "../../pipeline/token-estimate";
import { buildPrompt } from "../../prompt/build";
import { randomHex } from "../../util/random";
import { json, RAW_BODY, type RouteApp, type RouteCtx } from "../route-kit";
import { prepareTurn } from "../turn-service";
import { messagesJsonOutput, normalizeMessages } from "./normalize";
import { startTurnWithJsonOutput } from "../json-output-service";
import { messagesStreamRenderer, renderMessage } from "./render";

const DEFAULT_MAX_TOKENS = 8192;

export function messagesRoutes(app: RouteApp, ctx: AppContext) {
  const create = async ({ request }: RouteCtx) => {
    const state = requestState(request);
    if (state) state.route = "/msgapi/v1/messages";
    const caller = authenticateBusiness(ctx, request);
    const body = await readJsonObject(request, BUSINESS_BODY_LIMIT);
    // max_tokens is supplied when absent and never used to cut output (gateway.md Limits).
    if (body.max_tokens === undefined) body.max_tokens = DEFAULT_MAX_TOKENS;
    if (!Array.isArray(body.messages)) throw new GatewayError(400, "invalid_request", "messages must be an array.", { param: "messages" });
    const turn = prepareTurn(ctx, request, body, "messages", normalizeMessages(body));
    const running = await startTurnWithJsonOutput(ctx, request, caller, { ...turn, jsonOutput: messagesJsonOutput(body) });
    const meta = {
      id: `msg_${randomHex(24)}`,
      model: turn.requestedModel,
      exposeThinking: turn.exposeThinking,
      promptTokens: running.promptTokens,
      declaredTools: turn.tools.map((t) => t.name),
    };
    if (turn.stream) {
      const sse = running.events.pipeThrough(coalesceDeltas()).pipeThrough(messagesStreamRenderer(meta));
      return sseResponse(sse, { keepAlive: KEEPALIVE_PING });
    }
    return json(renderMessage(meta, await collectTurn(running.events)));
  };

  // D10.5: the local estimate over system, messages and tools; validates the model; contacts no core account.
  const countTokens = async ({ request }: RouteCtx) => {
    authenticateBusiness(ctx, request);
    const body = await readJsonObject(request, BUSINESS_BODY_LIMIT);
    if (typeof body.model !== "string") throw new GatewayError(400, "invalid_request", "model is required.", { param: "model" });
    const resolved = resolveModel(body.model, ctx.config.get().model_aliases);
    if (!resolved.ok) throw new GatewayError(400, resolved.code, resolved.message, { param: "model" });
    if (!Array.isArray(body.messages)) throw new GatewayError(400, "invalid_request", "messages must be an array.", { param: "messages" });
    const turn = prepareTurn(ctx, request, body, "messages", normalizeMessages(body));
    const built = buildPrompt(turn, { currentInputFile: { enabled: false, min_chars: 0 } });
    const inlineBytes = turn.files.reduce((n, f) => n + f.data.byteLength, 0);
    return json({ input_tokens: estimateTokens(built.prompt) + Math.floor(inlineBytes / 3) });
  };

  for (const base of ["/msgapi/v1/messages", "/v1/messages", "/messages"]) {
    app.post(base, create, RAW_BODY);
    app.post(`${base}/count_tokens`, countTokens, RAW_BODY);
  }
}
