// POST /v1/embeddings (gateway.md "Embeddings", D10.3): local providers only; never contacts core, takes no
// slot, accepts any non-empty credential.
import type { AppContext } from "../../context";
import { authenticateBusiness } from "../../http/business-auth";
import { BUSINESS_BODY_LIMIT, readJsonObject } from "../../http/body";
import { GatewayError } from "../../http/errors";
import { requestState } from "../../http/request-state";
import { effectiveEmbeddings } from "../../config/effective";
import { resolveModel } from "../../models/resolve";
import { estimateTokens } from "../../pipeline/token-estimate";
import { json, RAW_BODY, type RouteApp, type RouteCtx } from "../route-kit";
import { base64Float32, PROVIDERS, type EmbeddingInput } from "./providers";

const MAX_ITEMS = 2048;

function parseInputs(input: unknown): EmbeddingInput[] {
  const bad = () => new GatewayError(400, "invalid_request", "input must be a string, an array of strings, a token array or an array of token arrays.", { param: "input" });
  if (typeof input === "string") return [input];
  if (!Array.isArray(input) || input.length === 0) throw bad();
  if (input.every((x) => typeof x === "string")) return input as string[];
  if (input.every((x) => Number.isInteger(x))) return [input as number[]];
  if (input.every((x) => Array.isArray(x) && x.length > 0 && x.every((y) => Number.isInteger(y)))) return input as number[][];
  throw bad();
}

export function embeddingsRoutes(app: RouteApp, ctx: AppContext) {
  const handler = async ({ request }: RouteCtx) => {
    const state = requestState(request);
    if (state) state.route = "/v1/embeddings";
    authenticateBusiness(ctx, request);
    const body = await readJsonObject(request, BUSINESS_BODY_LIMIT);
    if (typeof body.model !== "string") throw new GatewayError(400, "invalid_request", "model is required.", { param: "model" });
    const resolved = resolveModel(body.model, ctx.config.get().model_aliases);
    if (!resolved.ok) throw new GatewayError(400, resolved.code, resolved.message, { param: "model" });
    if (state) {
      state.model = body.model;
      state.resolvedModel = resolved.id;
    }
    const inputs = parseInputs(body.input);
    if (inputs.length > MAX_ITEMS) throw new GatewayError(400, "invalid_request", `input holds more than ${MAX_ITEMS} items.`, { param: "input" });
    const cfg = effectiveEmbeddings(ctx.config.get());
    const providerName = cfg.provider;
    if (!providerName) throw new GatewayError(501, "embeddings_not_configured", "Embeddings are not configured (set embeddings.provider).");
    const provider = PROVIDERS[providerName];
    if (!provider) throw new GatewayError(501, "embeddings_provider_unsupported", `Embeddings provider '${providerName}' is not supported.`);
    let dims = cfg.dimensions;
    if (body.dimensions !== undefined) {
      const d = Number(body.dimensions);
      if (!Number.isInteger(d) || d < 1 || d > 4096) throw new GatewayError(400, "invalid_request", "dimensions must be an integer from 1 to 4096.", { param: "dimensions" });
      dims = d;
    }
    const format = body.encoding_format ?? "float";
    if (format !== "float" && format !== "base64") throw new GatewayError(400, "invalid_request", "encoding_format must be float or base64.", { param: "encoding_format" });
    let tokens = 0;
    const data = inputs.map((input, index) => {
      tokens += typeof input === "string" ? estimateTokens(input) : input.length;
      const v = provider(input, dims);
      return { object: "embedding", index, embedding: format === "base64" ? base64Float32(v) : Array.from(v) };
    });
    return json({ object: "list", data, model: body.model, usage: { prompt_tokens: tokens, total_tokens: tokens } });
  };
  app.post("/v1/embeddings", handler, RAW_BODY);
  app.post("/embeddings", handler, RAW_BODY);
}
