// POST /v1/chat/completions (gateway.md "Chat completions"; svcml-and-prompts.md §3.3, §4.4).
import type { AppContext } from "../../context";
import { authenticateBusiness } from "../../http/business-auth";
import { BUSINESS_BODY_LIMIT, readJsonObject } from "../../http/body";
import { requestState } from "../../http/request-state";
import { KEEPALIVE_COMMENT, sseResponse } from "../../http/sse";
import { collectTurn } from "../../pipeline/collect-turn";
import { coalesceDeltas } from "../../pipeline/coalesce";
import { randomHex } from "../../util/random";
import { json, RAW_BODY, type RouteApp, type RouteCtx } from "../route-kit";
import { prepareTurn } from "../turn-service";
import { chatJsonOutput, normalizeChat } from "./normalize";
import { startTurnWithJsonOutput } from "../json-output-service";
import { chatStreamRenderer, renderChatCompletion } from "./render";

export function chatRoutes(app: RouteApp, ctx: AppContext) {
  const handler = async ({ request }: RouteCtx) => {
    const state = requestState(request);
    if (state) state.route = "/v1/chat/completions";
    const caller = authenticateBusiness(ctx, request);
    const body = await readJsonObject(request, BUSINESS_BODY_LIMIT);
    const turn = prepareTurn(ctx, request, body, "chat", normalizeChat(body));
    const running = await startTurnWithJsonOutput(ctx, request, caller, { ...turn, jsonOutput: chatJsonOutput(body) });
    const meta = {
      id: `chatcmpl-${running.sessionId || randomHex(24)}`,
      created: Math.floor(ctx.now() / 1000),
      model: turn.requestedModel,
      exposeThinking: turn.exposeThinking,
    };
    if (turn.stream) {
      const sse = running.events.pipeThrough(coalesceDeltas()).pipeThrough(chatStreamRenderer(meta));
      return sseResponse(sse, { keepAlive: KEEPALIVE_COMMENT });
    }
    const result = await collectTurn(running.events);
    return json(renderChatCompletion(meta, result));
  };
  app.post("/v1/chat/completions", handler, RAW_BODY);
  app.post("/chat/completions", handler, RAW_BODY);
}
