// POST /v1/embeddings and its root alias (gateway.md "Embeddings", D10.3): local providers only; never contacts
// core, takes no slot, accepts any non-empty credential.
import { publicDoc } from "../public-docs";
import type { AppContext } from "../../context";
import type { BusinessApp } from "../../http/business-edge";
import { GatewayError } from "../../util/gateway-error";
import { invalidRequest } from "../../util/invalid-request";
import { json } from "../../http/json-response";
import { effectiveEmbeddings } from "../../config/effective";
import { resolveModel } from "../../models/resolve";
import { checkModelAllowed } from "../../metering/key-policy";
import { estimateTokens } from "../../pipeline/token-estimate";
import { base64Float32, PROVIDERS, type EmbeddingInput } from "./providers";
import { EmbeddingsBody } from "./schema";

const MAX_ITEMS = 2048;

/** The four forms of `input`: all strings, one token array, or token arrays; mixed lists are refused. */
function parseInputs(input: EmbeddingsBody["input"]): EmbeddingInput[] {
  if (typeof input === "string") return [input];
  if (input.every((x) => typeof x === "string")) return input;
  if (input.every((x) => typeof x === "number")) return [input];
  if (input.every((x) => Array.isArray(x))) return input;
  throw invalidRequest("input must be a string, an array of strings, a token array or an array of token arrays.", "input");
}

export function embeddingsRoutes(app: BusinessApp, ctx: AppContext): void {
  for (const base of ["/v1", ""])
    app.post(
      `${base}/embeddings`,
      ({ body, reqState }) => {
        const resolved = resolveModel(body.model, ctx.config.get().model_aliases);
        if (!resolved.ok) throw new GatewayError(400, resolved.code, resolved.message, { param: "model" });
        checkModelAllowed(reqState.allowedModels, resolved.id);
        reqState.model = body.model;
        reqState.resolvedModel = resolved.id;
        const inputs = parseInputs(body.input);
        if (inputs.length > MAX_ITEMS) throw invalidRequest(`input holds more than ${MAX_ITEMS} items.`, "input");
        const cfg = effectiveEmbeddings(ctx.config.get());
        const providerName = cfg.provider;
        if (!providerName) throw new GatewayError(501, "embeddings_not_configured", "Embeddings are not configured (set embeddings.provider).");
        const provider = PROVIDERS[providerName];
        if (!provider) throw new GatewayError(501, "embeddings_provider_unsupported", `Embeddings provider '${providerName}' is not supported.`);
        const dims = body.dimensions ?? cfg.dimensions;
        const format = body.encoding_format ?? "float";
        let tokens = 0;
        const data = inputs.map((input, index) => {
          tokens += typeof input === "string" ? estimateTokens(input) : input.length;
          const v = provider(input, dims);
          return { object: "embedding", index, embedding: format === "base64" ? base64Float32(v) : Array.from(v) };
        });
        return json({ object: "list", data, model: body.model, usage: { prompt_tokens: tokens, total_tokens: tokens } });
      },
      { ...publicDoc("embeddings"), business: true, body: EmbeddingsBody },
    );
}
