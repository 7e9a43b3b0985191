// What /openapi.json says about each public route: summary, tag and credential. A route spreads its entry into its
// options (`...publicDoc("chat")`): one key per route registration, whichever base paths the registration loops
// over. Streamed answers (`stream: true`, streamGenerateContent) are Server-Sent Events; the JSON shape is the
// non-stream answer. The documented answers are in public-answers.ts, loaded with the first OpenAPI document: a
// route's entry holds only its `detail`, and the generator finds the answers by that object (issue 35).
import type { DocumentDecoration } from "elysia";
import { doc, type Audience } from "../http/openapi-doc";
import type { PUBLIC_ANSWERS } from "./public-answers";

export type { ChatCompletion, ChatCompletionChunk, ModelList } from "./public-answers";

const SSE = "With `stream: true` the answer is Server-Sent Events (text/event-stream) instead.";

/** The multipart body is streamed to disk by the handler, not parsed by Elysia: its shape is stated here. */
const Upload: NonNullable<DocumentDecoration["requestBody"]> = {
  required: true,
  content: {
    "multipart/form-data": {
      schema: {
        type: "object",
        required: ["file"],
        properties: { file: { type: "string", format: "binary" }, purpose: { type: "string", default: "assistants" }, model: { type: "string", description: "Decides the model type the file is uploaded for." } },
      },
    },
  },
};
const withRequest = <T extends { detail: object }>(e: T, requestBody: NonNullable<DocumentDecoration["requestBody"]>) => ({ ...e, detail: { ...e.detail, requestBody } });


const entry = (tag: string, audience: Audience, summary: string, description?: string) => ({ detail: doc(tag, audience, summary, description) });
const open = (tag: string, summary: string, description?: string) => ({ detail: doc(tag, "open", summary, description) });

const PUBLIC_DOCS = {
  chat: entry("chat completions", "business", "Create a chat completion.", SSE),
  responses: entry("responses", "business", "Create a response; stored for previous_response_id unless `store: false`.", SSE),
  responseGet: entry("responses", "business", "A stored response (only its owner's key sees it)."),
  responseDelete: entry("responses", "business", "Delete a stored response."),
  embeddings: entry("embeddings", "business", "Embed text or token arrays with the local provider."),
  files: withRequest(entry("files", "business", "Upload a file (multipart/form-data, up to 100 MiB) for later turns."), Upload),
  messages: entry("messages", "business", "Create a message.", SSE),
  countTokens: entry("messages", "business", "Estimate a request's input tokens locally."),
  generate: entry("generate content", "business", "generateContent, streamGenerateContent (always SSE) or countTokens on a model."),
  models: open("models", "The native models."),
  model: open("models", "One model; an alias resolves to its model."),
  messagesModels: open("models", "The models in the messages protocol's list shape."),
  messagesModel: open("models", "One model in the messages protocol's shape."),
  generateModels: open("models", "The models in the generate-content list shape."),
  generateModel: open("models", "One model in the generate-content shape."),
  health: open("probes", "Liveness: 200 while the process runs."),
  ready: open("probes", "Readiness: 503 while starting or draining."),
  headBase: open("probes", "A reachability check on a surface's base path (clients send one at start)."),
  metrics: { detail: doc("ops", "metrics", "Prometheus metrics (open when metrics.public is true).", "The admin credential or metrics.token as a Bearer.") },
  consolePage: open("console", "The admin console (a static page; the data needs the admin credential)."),
  landing: open("console", "The landing page."),
  consoleAsset: open("console", "A console asset."),
};
export type PublicDocKey = keyof typeof PUBLIC_DOCS;

/** The documentation options of one public route registration, spread into its Elysia options. */
export const publicDoc = <K extends PublicDocKey>(route: K): (typeof PUBLIC_DOCS)[K] => PUBLIC_DOCS[route];

const KEY_OF_DETAIL = new Map<object, PublicDocKey>(Object.entries(PUBLIC_DOCS).map(([key, e]) => [e.detail, key as PublicDocKey]));

/**
 * The generator's `references` (path → method → { response }) for the routes of `app` that carry a public entry's
 * `detail`: their documented answers, as if each route had been given them as its `response`.
 */
export function publicAnswerReferences(app: { routes: readonly { method: string; path: string; hooks?: { detail?: unknown } }[] }, answers: typeof PUBLIC_ANSWERS): Record<string, Record<string, { response: Record<number, unknown> }>> {
  const refs: Record<string, Record<string, { response: Record<number, unknown> }>> = {};
  for (const route of app.routes) {
    const key = route.hooks?.detail ? KEY_OF_DETAIL.get(route.hooks.detail as object) : undefined;
    if (key) (refs[route.path] ??= {})[route.method.toLowerCase()] = { response: answers[key] };
  }
  return refs;
}

/** The references for `app`'s public routes, with the answers' module loaded on this first use (issue 35). */
export async function publicAnswersFor(app: Parameters<typeof publicAnswerReferences>[0]): Promise<Record<string, unknown>> {
  return publicAnswerReferences(app, (await import("./public-answers")).PUBLIC_ANSWERS);
}
