// Generate-content protocol (gateway.md "Generate-content protocol"; svcml-and-prompts.md §3.6, §4.7; D10.6).
// POST /v1beta/models/{model}:{action} and the same under /v1/models; {model} may be an alias or -nothinking.
import type { AppContext } from "../../context";
import { authenticateBusiness } from "../../http/business-auth";
import { BUSINESS_BODY_LIMIT, readJsonObject } from "../../http/body";
import { GatewayError } from "../../http/errors";
import { requestState } from "../../http/request-state";
import { KEEPALIVE_BLANK, sseResponse } from "../../http/sse";
import { collectTurn } from "../../pipeline/collect-turn";
import { coalesceDeltas } from "../../pipeline/coalesce";
import { estimateTokens } from "../../pipeline/token-estimate";
import { buildPrompt } from "../../prompt/build";
import { randomHex } from "../../util/random";
import { json, RAW_BODY, type RouteApp, type RouteCtx } from "../route-kit";
import { prepareTurn } from "../turn-service";
import { generateJsonOutput, normalizeGenerate } from "./normalize";
import { startTurnWithJsonOutput } from "../json-output-service";
import { generateStreamRenderer, renderGenerate } from "./render";

const ACTIONS = new Set(["generateContent", "streamGenerateContent", "countTokens"]);

export function generateRoutes(app: RouteApp, ctx: AppContext) {
  const handler = async ({ request, params }: RouteCtx) => {
    const raw = decodeURIComponent(params.modelAction ?? "");
    const colon = raw.lastIndexOf(":");
    const model = colon > 0 ? raw.slice(0, colon) : raw;
    const action = colon > 0 ? raw.slice(colon + 1) : "";
    if (!ACTIONS.has(action)) throw new GatewayError(404, "not_found", `Unknown action '${action}'.`);
    const state = requestState(request);
    if (state) state.route = `/v1beta/models/{model}:${action}`;
    const caller = authenticateBusiness(ctx, request);
    const body = await readJsonObject(request, BUSINESS_BODY_LIMIT);
    if (body.contents !== undefined && !Array.isArray(body.contents))
      throw new GatewayError(400, "invalid_request", "contents must be an array.", { param: "contents" });
    const stream = action === "streamGenerateContent";
    const normalized = normalizeGenerate(body);
    const turn = prepareTurn(ctx, request, { ...body, stream }, "generate", normalized, model);
    if (action === "countTokens") {
      const built = buildPrompt(turn, { currentInputFile: { enabled: false, min_chars: 0 } });
      const inlineBytes = turn.files.reduce((n, f) => n + f.data.byteLength, 0);
      return json({ totalTokens: estimateTokens(built.prompt) + Math.floor(inlineBytes / 3) });
    }
    const running = await startTurnWithJsonOutput(ctx, request, caller, { ...turn, jsonOutput: generateJsonOutput(body) });
    const meta = {
      responseId: randomHex(24),
      model,
      exposeThinking: turn.exposeThinking,
      thinkingOn: turn.thinking,
      toolMode: turn.tools.length > 0 && turn.toolChoice.kind !== "none",
    };
    if (stream) {
      // Always SSE, with or without ?alt=sse (D9.2).
      const sse = running.events.pipeThrough(coalesceDeltas()).pipeThrough(generateStreamRenderer(meta));
      return sseResponse(sse, { keepAlive: KEEPALIVE_BLANK });
    }
    return json(renderGenerate(meta, await collectTurn(running.events)));
  };
  app.post("/v1beta/models/:modelAction", handler, RAW_BODY);
  app.post("/v1/models/:modelAction", handler, RAW_BODY);
}
