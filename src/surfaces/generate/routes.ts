// Generate-content protocol (gateway.md "Generate-content protocol"; svcml-and-prompts.md §3.6, §4.7; D10.6).
// POST /v1beta/models/{model}:{action} and the same under /v1/models; {model} may be an alias or -nothinking.
import { publicDoc } from "../public-docs";
import type { AppContext } from "../../context";
import type { BusinessApp } from "../../http/business-edge";
import { GatewayError } from "../../util/gateway-error";
import { json } from "../../http/json-response";
import { KEEPALIVE_BLANK } from "../../http/sse";
import { coalesceStage } from "../../pipeline/coalesce";
import { estimateTokens } from "../../pipeline/token-estimate";
import { buildPrompt } from "../../prompt/build";
import { randomHex } from "../../util/random";
import { prepareTurn, turnResult, turnSse } from "../business-turn";
import { generateJsonOutput, normalizeGenerate } from "./normalize";
import { startTurnWithJsonOutput } from "../json-output-service";
import { generateStreamStage, renderGenerate } from "./render";
import { GenerateBody, GenerateParams } from "./schema";

const ACTIONS = new Set(["generateContent", "streamGenerateContent", "countTokens"]);

function splitModelAction(raw: string): { model: string; action: string } {
  const decoded = decodeURIComponent(raw);
  const colon = decoded.lastIndexOf(":");
  return colon > 0 ? { model: decoded.slice(0, colon), action: decoded.slice(colon + 1) } : { model: decoded, action: "" };
}

/** An unknown action is an unknown route: 404 before any credential is asked for. */
function knownAction({ params }: { params: Record<string, string> }): void {
  const { action } = splitModelAction(params.modelAction ?? "");
  if (!ACTIONS.has(action)) throw new GatewayError(404, "not_found", `Unknown action '${action}'.`);
}

export function generateRoutes(app: BusinessApp, ctx: AppContext): void {
  for (const base of ["/v1beta", "/v1"])
    app.post(
      `${base}/models/:modelAction`,
      async ({ request, params, body, caller, reqState }) => {
        const { model, action } = splitModelAction(params.modelAction);
        const stream = action === "streamGenerateContent";
        const normalized = normalizeGenerate(body);
        const turn = prepareTurn(ctx, reqState, { ...body, stream }, "generate", normalized, model);
        if (action === "countTokens") {
          const built = buildPrompt(turn, { currentInputFile: { enabled: false, min_chars: 0 } });
          const inlineBytes = turn.files.reduce((n, f) => n + f.data.byteLength, 0);
          return json({ totalTokens: estimateTokens(built.prompt) + Math.floor(inlineBytes / 3) });
        }
        const running = await startTurnWithJsonOutput(ctx, request, reqState, caller, { ...turn, jsonOutput: generateJsonOutput(body) });
        const meta = {
          responseId: randomHex(24),
          model,
          exposeThinking: turn.exposeThinking,
          thinkingOn: turn.thinking,
          toolMode: turn.tools.length > 0 && turn.toolChoice.kind !== "none",
        };
        if (stream) {
          // Always SSE, with or without ?alt=sse (D9.2).
          return turnSse(running, { keepAlive: KEEPALIVE_BLANK, meter: reqState }, coalesceStage(), generateStreamStage(meta));
        }
        return json(renderGenerate(meta, await turnResult(running)));
      },
      { ...publicDoc("generate"), business: knownAction, params: GenerateParams, body: GenerateBody },
    );
}
