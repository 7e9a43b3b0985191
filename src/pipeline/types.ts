// The seams of the pipeline (ARCHITECTURE.md). Every surface speaks these types and nothing else.

/** A resolved `[reference:N]` target (core-upstream.md §7.8). */
export interface ResolvedReference {
  index: number;
  fragmentId: number;
  type: string;
  url: string | null;
  title?: string | null;
}


/** Output of coreReduce: what core said, channel by channel (core-upstream.md §7.18). */
export type CoreEvent =
  | { type: "round"; round: number; requestMessageId?: number; responseMessageId?: number; modelType?: string }
  | { type: "thinking"; text: string }
  | { type: "text"; text: string }
  | { type: "references"; references: ResolvedReference[] }
  | { type: "usage"; tokens: number }
  | { type: "keepalive" }
  | {
      type: "end";
      outcome: "finished" | "content_filter" | "truncated" | "error";
      /** Gateway error code (D4.3 / core-upstream §4 kinds) when outcome is "error". */
      code?: string;
      message?: string;
      /** Whether any visible answer text was produced. */
      visible: boolean;
    };

export interface Usage {
  promptTokens: number;
  completionTokens: number;
  reasoningTokens: number;
  totalTokens: number;
}

export type FinishOutcome = "stop" | "tool_calls" | "length" | "content_filter";

/** Output of the svcml detector stage and of the whole pipeline (svcml-and-prompts.md §2.2, §4). */
export type TurnEvent =
  | { type: "thinking"; text: string }
  | { type: "text"; text: string }
  | { type: "call_start"; index: number; id: string; name: string }
  | { type: "call_args"; index: number; fragment: string }
  | { type: "call_end"; index: number }
  | { type: "keepalive" }
  | { type: "finish"; outcome: FinishOutcome; usage: Usage }
  | { type: "error"; status: number; code: string; message: string };

export type Role = "system" | "user" | "assistant" | "tool";

export interface ToolCallHistory {
  name: string;
  arguments: unknown;
  id?: string;
}

/** One normalised conversation turn (svcml-and-prompts.md §3.1). */
export interface Turn {
  role: Role;
  text: string;
  reasoning?: string;
  toolCalls?: ToolCallHistory[];
  toolResultOf?: { name?: string; callId?: string };
}

export interface ToolDef {
  name: string;
  description?: string;
  parameters?: unknown;
}

export type ToolChoice =
  | { kind: "auto" }
  | { kind: "none" }
  | { kind: "required" }
  | { kind: "forced"; name: string }
  | { kind: "allowed"; names: string[]; required: boolean };

/** An inline file or image to upload to core before the completion (§3.12). */
export interface InlineFile {
  data: Uint8Array;
  mime: string;
  filename: string;
}

export type Surface = "chat" | "responses" | "messages" | "generate";

/**
 * Structured output the client asked for (issue 16 item 5): `json_object` any JSON object, `json` any JSON
 * value (generate-content's responseMimeType without a schema), `json_schema` a value matching `schema`.
 */
export interface JsonOutputSpec {
  kind: "json_object" | "json" | "json_schema";
  schema?: unknown;
  /** The schema's name (chat json_schema.name, responses format.name), shown to core. */
  name?: string;
}

/** What every surface normalises its request into. */
export interface TurnRequest {
  surface: Surface;
  /** The model name exactly as the client sent it (echoed back, D6.8). */
  requestedModel: string;
  /** The resolved native id, with -nothinking when applicable. */
  model: string;
  turns: Turn[];
  tools: ToolDef[];
  toolChoice: ToolChoice;
  /** At most one call (parallel_tool_calls false and equivalents). */
  singleCall: boolean;
  /** Thinking on upstream (thinking_enabled). */
  thinking: boolean;
  /** Thinking shown to the client when on. */
  exposeThinking: boolean;
  /** Effort note requested (svcml-and-prompts.md §3.10). */
  highEffort: boolean;
  stream: boolean;
  files: InlineFile[];
  /** Core file ids the client referenced explicitly. */
  fileIds: string[];
  /** Sampling options copied verbatim into core's completion body. */
  passThrough: Record<string, unknown>;
  /** JSON output: the prompt says so and only the JSON text is returned (src/surfaces/json-output-service.ts). */
  jsonOutput?: JsonOutputSpec;
}

export interface FinishedCall {
  index: number;
  id: string;
  name: string;
  /** Final arguments JSON text. */
  arguments: string;
  finished: boolean;
}

/** A collected, non-streamed turn. */
export interface TurnResult {
  thinking: string;
  text: string;
  /** Visible text and calls in order of appearance. */
  parts: ({ type: "text"; text: string } | { type: "call"; call: FinishedCall })[];
  calls: FinishedCall[];
  outcome: FinishOutcome;
  usage: Usage;
  sessionId?: string;
}
