// The documented answers of the public routes (gateway.md's protocol sections), each with an example, by the key
// of their entry in public-docs.ts. Not given to Elysia: it would TypeBox-compile them when it composes each route,
// to check answers it never checks here (every public route answers a Response, which Elysia passes through), and
// building them at load cost ≈ 2.8 ms of every cold start (issue 35). The OpenAPI generator gets them through its
// `references` (publicAnswerReferences, http/openapi.ts), so this module loads with the first document.
// First: t.Integer compiled on first use (elysia-integer.ts).
import "../http/elysia-integer";
import { t, type Static, type TSchema } from "elysia";
import { ErrorAnswers, Nullable, textAnswer, withExample } from "../http/openapi-doc";
import type { PublicDocKey } from "./public-docs";

const ToolCall = t.Object({ id: t.String(), type: t.Literal("function"), function: t.Object({ name: t.String(), arguments: t.String({ description: "JSON text." }) }) });
/** A chat completion as chat/render.ts renders it; the console's playground reads it as this type. */
export type ChatCompletion = Static<typeof ChatCompletion>;
const ChatCompletion = withExample(
  t.Object({
    id: t.String(),
    object: t.Literal("chat.completion"),
    created: t.Integer(),
    model: t.String(),
    choices: t.Array(
      t.Object({
        index: t.Integer(),
        message: t.Object({
          role: t.Literal("assistant"),
          content: Nullable(t.String()),
          reasoning_content: t.Optional(t.String({ description: "The model's thinking, when thinking is on and shown." })),
          tool_calls: t.Optional(t.Array(ToolCall)),
        }),
        finish_reason: Nullable(t.String()),
      }),
    ),
    usage: t.Object({ prompt_tokens: t.Integer(), completion_tokens: t.Integer(), total_tokens: t.Integer() }),
  }),
  {
    id: "chatcmpl-8f2a",
    object: "chat.completion",
    created: 1780000000,
    model: "gpt-4o",
    choices: [{ index: 0, message: { role: "assistant", content: "Hello! How can I help?" }, finish_reason: "stop" }],
    usage: { prompt_tokens: 9, completion_tokens: 7, total_tokens: 16 },
  },
);

/**
 * One `data:` event of a streamed chat completion (chat/render.ts chatStreamStage). The documents describe a
 * stream as text/event-stream, so this schema is not filed under a route: it types the console's playground.
 * A tool call arrives in pieces: the first with its id and name, the rest with argument fragments, by index.
 */
export type ChatCompletionChunk = Static<typeof ChatCompletionChunk>;
const ChatCompletionChunk = t.Object({
  id: t.String(),
  object: t.Literal("chat.completion.chunk"),
  created: t.Integer(),
  model: t.String(),
  choices: t.Array(
    t.Object({
      index: t.Integer(),
      delta: t.Object({
        role: t.Optional(t.Literal("assistant")),
        content: t.Optional(Nullable(t.String())),
        reasoning_content: t.Optional(t.String()),
        tool_calls: t.Optional(t.Array(t.Object({ index: t.Integer(), id: t.Optional(t.String()), type: t.Optional(t.Literal("function")), function: t.Object({ name: t.Optional(t.String()), arguments: t.Optional(t.String()) }) }))),
      }),
      finish_reason: Nullable(t.String()),
    }),
  ),
});

const responseExample = {
  id: "resp_6f1c",
  object: "response",
  created_at: 1780000000,
  status: "completed",
  model: "gpt-4o",
  output: [{ type: "message", id: "msg_1", role: "assistant", status: "completed", content: [{ type: "output_text", text: "Hello!", annotations: [] }] }],
  usage: { input_tokens: 9, output_tokens: 3, total_tokens: 12 },
};
const ResponseObject = withExample(t.Object({ id: t.String(), object: t.Literal("response"), created_at: t.Integer(), status: t.String(), model: t.String(), output: t.Array(t.Object({ type: t.String() })) }), responseExample);
const ResponseDeleted = withExample(t.Object({ id: t.String(), object: t.Literal("response"), deleted: t.Literal(true) }), { id: "resp_6f1c", object: "response", deleted: true });

const EmbeddingList = withExample(
  t.Object({
    object: t.Literal("list"),
    data: t.Array(t.Object({ object: t.Literal("embedding"), index: t.Integer(), embedding: t.Union([t.Array(t.Number()), t.String()]) })),
    model: t.String(),
    usage: t.Object({ prompt_tokens: t.Integer(), total_tokens: t.Integer() }),
  }),
  { object: "list", data: [{ object: "embedding", index: 0, embedding: [0.012, -0.034, 0.051] }], model: "text-embedding-3-small", usage: { prompt_tokens: 3, total_tokens: 3 } },
);

const Message = withExample(
  t.Object({
    id: t.String(),
    type: t.Literal("message"),
    role: t.Literal("assistant"),
    model: t.String(),
    content: t.Array(t.Object({ type: t.String() })),
    stop_reason: Nullable(t.String()),
    usage: t.Object({ input_tokens: t.Integer(), output_tokens: t.Integer() }),
  }),
  { id: "msg_01a2", type: "message", role: "assistant", model: "claude-sonnet-4", content: [{ type: "text", text: "Hello!" }], stop_reason: "end_turn", stop_sequence: null, usage: { input_tokens: 9, output_tokens: 3 } },
);
const TokenCount = withExample(t.Object({ input_tokens: t.Integer() }), { input_tokens: 42 });

const GenerateAnswer = withExample(t.Union([t.Object({ candidates: t.Array(t.Object({ content: t.Object({ role: t.String(), parts: t.Array(t.Unknown()) }) })) }), t.Object({ totalTokens: t.Integer() })]), {
  candidates: [{ content: { role: "model", parts: [{ text: "Hello!" }] }, finishReason: "STOP", index: 0 }],
  usageMetadata: { promptTokenCount: 9, candidatesTokenCount: 3, totalTokenCount: 12 },
  modelVersion: "gemini-2.5-pro",
  responseId: "a1b2c3",
});

const FileObject = withExample(t.Object({ id: t.String(), object: t.Literal("file"), bytes: t.Integer(), created_at: t.Integer(), filename: t.String(), purpose: t.String(), status: t.String() }), {
  id: "file-9d8c",
  object: "file",
  bytes: 1024,
  created_at: 1780000000,
  filename: "notes.txt",
  purpose: "assistants",
  status: "processed",
  status_details: null,
  account_id: "",
});

const modelExample = { id: "core-v4-flash", object: "model", created: 1700000000, owned_by: "core", permission: [] };
const ModelObject = withExample(t.Object({ id: t.String(), object: t.Literal("model") }), modelExample);
/** GET /v1/models: the console's playground reads the ids. */
export type ModelList = Static<typeof ModelList>;
const ModelList = withExample(t.Object({ object: t.Literal("list"), data: t.Array(t.Object({ id: t.String() })) }), { object: "list", data: [modelExample] });
const msgModel = { type: "model", id: "claude-sonnet-4", display_name: "claude-sonnet-4", created_at: "2025-01-01T00:00:00Z" };
const MessagesModel = withExample(t.Object({ id: t.String(), type: t.Literal("model") }), msgModel);
const MessagesModelList = withExample(t.Object({ data: t.Array(t.Object({ id: t.String() })), has_more: t.Boolean() }), { object: "list", data: [msgModel], first_id: msgModel.id, last_id: msgModel.id, has_more: false });
const genModel = { name: "models/core-v4-flash", displayName: "core-v4-flash", supportedGenerationMethods: ["generateContent", "streamGenerateContent", "countTokens"] };
const GenerateModel = withExample(t.Object({ name: t.String() }), genModel);
const GenerateModelList = withExample(t.Object({ models: t.Array(t.Object({ name: t.String() })) }), { models: [genModel] });

const Health = withExample(t.Object({ status: t.String() }), { status: "ok" });
const Ready = withExample(t.Object({ status: t.String() }), { status: "ready" });
const NotReady = withExample(t.Object({ status: t.Union([t.Literal("starting"), t.Literal("draining")]) }), { status: "draining" });
const Html = textAnswer("text/html", "The page (no data: it signs in against the admin API).", "<!doctype html><html>…</html>");
const Asset = textAnswer("text/javascript", "app.js or app.css (gzip when accepted; ETag: If-None-Match answers 304).", "/* the console bundle */");
const Metrics = textAnswer("text/plain", "The Prometheus text exposition.", "# TYPE gateway_requests_total counter\ngateway_requests_total 42\n");
const Nothing = t.Null({ description: "No body." });

const business = (answer: TSchema, errors: TSchema) => ({ 200: answer, 400: errors, 401: errors });

export const PUBLIC_ANSWERS: Record<PublicDocKey, Record<number, TSchema>> = {
  chat: business(ChatCompletion, ErrorAnswers.chat),
  responses: business(ResponseObject, ErrorAnswers.chat),
  responseGet: business(ResponseObject, ErrorAnswers.chat),
  responseDelete: business(ResponseDeleted, ErrorAnswers.chat),
  embeddings: business(EmbeddingList, ErrorAnswers.chat),
  files: business(FileObject, ErrorAnswers.chat),
  messages: business(Message, ErrorAnswers.messages),
  countTokens: business(TokenCount, ErrorAnswers.messages),
  generate: business(GenerateAnswer, ErrorAnswers.generate),
  models: { 200: ModelList },
  model: { 200: ModelObject, 404: ErrorAnswers.chat },
  messagesModels: { 200: MessagesModelList },
  messagesModel: { 200: MessagesModel, 404: ErrorAnswers.messages },
  generateModels: { 200: GenerateModelList },
  generateModel: { 200: GenerateModel, 404: ErrorAnswers.generate },
  health: { 200: Health },
  ready: { 200: Ready, 503: NotReady },
  headBase: { 200: Nothing },
  metrics: { 200: Metrics, 401: ErrorAnswers.chat },
  consolePage: { 200: Html },
  landing: { 200: Html },
  consoleAsset: { 200: Asset, 404: ErrorAnswers.admin },
};
