// What every business surface does between its normaliser and its renderer: resolve the model and thinking,
// then run the pipeline with the context's pool, accounts and core client.
import type { AppContext } from "../context";
import type { Caller } from "../accounts/caller";
import { GatewayError } from "../util/gateway-error";
import { invalidRequest } from "../util/invalid-request";
import type { RequestState } from "../metering/request-state";
import { resolveModel } from "../models/resolve";
import { resolveThinking } from "../models/thinking";
import type { InlineFile, Surface, ToolChoice, ToolDef, Turn, TurnRequest } from "../pipeline/types";
import { runTurn } from "../turn/runner";
import type { RunningTurn } from "../turn/types";
import { BusinessTurnDeps } from "./turn-deps";
import { StagedTurn, throughStages } from "../turn/staged-turn";
import { SSE_HEADERS, sseResponse, sseWriter, type SseOptions } from "../http/sse";
import { historyTapStage } from "./history-tap";
import { turnFactsStage } from "../metering/turn-facts-tap";
import { Timeline } from "../metering/timeline";
import { checkModelAllowed } from "../metering/key-policy";
import { collectTurn } from "../pipeline/collect-turn";
import type { SyncTransformer } from "../pipeline/stage";
import type { TurnEvent, TurnResult } from "../pipeline/types";
import type { FileCollector } from "../prompt/content";
import { none } from "../util/none";

/** The surface-specific part of a TurnRequest, produced by each surface's normaliser. */
export interface NormalizedRequest {
  turns: Turn[];
  tools: ToolDef[];
  toolChoice: ToolChoice;
  singleCall: boolean;
  files: InlineFile[];
  fileIds: string[];
  passThrough: Record<string, unknown>;
  /** The surface's own effort hints (svcml-and-prompts.md §3.10), on top of the generic ones. */
  highEffortHint?: boolean;
}

/** The sampling fields of a request that sets none (most): shared, read only. */
const NO_SAMPLING: Record<string, unknown> = Object.freeze({});

function hasKeys(o: Record<string, unknown>): boolean {
  for (const _ in o) return true;
  return false;
}

/** A normaliser's result: the files it collected, and the rest as the surface read it. */
export function normalized(parts: Omit<NormalizedRequest, "files" | "fileIds">, files: FileCollector): NormalizedRequest {
  // Most requests have no files and many no tools: their lists are the shared empty one, not an array each for
  // as long as the turn (kept for a restart) lives (issue 35).
  return {
    ...parts,
    tools: parts.tools.length > 0 ? parts.tools : none(),
    passThrough: hasKeys(parts.passThrough) ? parts.passThrough : NO_SAMPLING,
    files: files.files.length > 0 ? files.files : none(),
    fileIds: files.fileIds.length > 0 ? files.fileIds : none(),
  };
}

export function prepareTurn(
  ctx: AppContext,
  state: RequestState,
  body: Record<string, unknown>,
  surface: Surface,
  normalized: NormalizedRequest,
  modelName: unknown = body.model,
): TurnRequest {
  if (typeof modelName !== "string" || modelName.trim() === "") throw invalidRequest("model is required.", "model");
  // Set before resolving: the request log shows the name a refused request asked for.
  state.model = modelName;
  const resolved = resolveModel(modelName, ctx.config.get().model_aliases);
  if (!resolved.ok) throw new GatewayError(400, resolved.code, resolved.message, { param: "model" });
  checkModelAllowed(state.allowedModels, resolved.id);
  const thinking = resolveThinking(body, resolved.id, surface);
  state.model = modelName;
  state.resolvedModel = resolved.id;
  state.stream = body.stream === true;
  return {
    surface,
    requestedModel: modelName,
    model: resolved.id,
    turns: normalized.turns,
    tools: normalized.tools,
    toolChoice: normalized.toolChoice,
    singleCall: normalized.singleCall,
    thinking: thinking.thinking,
    exposeThinking: thinking.exposeThinking,
    highEffort: thinking.thinking && (thinking.highEffort || Boolean(normalized.highEffortHint)),
    stream: body.stream === true,
    files: normalized.files,
    fileIds: normalized.fileIds,
    passThrough: normalized.passThrough,
  };
}

function lastUserText(turn: TurnRequest): string {
  for (let i = turn.turns.length - 1; i >= 0; i--) if (turn.turns[i]!.role === "user") return turn.turns[i]!.text;
  return "";
}

/** `state` is the request's (the access log's model, account and usage; the request id for core). */
export async function startTurn(ctx: AppContext, request: Request, state: RequestState, caller: Caller, turn: TurnRequest): Promise<RunningTurn> {
  const historyId = ctx.chatHistory.start({
    surface: turn.surface,
    model: turn.requestedModel,
    resolved_model: turn.model,
    stream: turn.stream,
    caller_id: caller.fingerprint,
    source: caller.source,
    request_messages: turn.turns.map((t) => ({ role: t.role, content: t.text, ...(t.toolCalls ? { tool_calls: t.toolCalls } : {}) })),
    user_input: lastUserText(turn),
  });
  state.historyId = historyId || undefined;
  try {
    const running = await runOn(ctx, request, caller, turn, state);
    ctx.chatHistory.update(historyId, { account_id: running.account ?? "", final_prompt: running.finalPrompt ?? "" });
    // Recorded: an open stream need not keep the prompt any longer.
    running.finalPrompt = undefined;
    // Every reader of the turn (the SSE body, the non-stream collector) reads through the taps.
    // The taps run inside the turn's own stream while nobody has read it yet (staged-turn.ts): no pipe of their own.
    throughStages(running, [historyTapStage(ctx.chatHistory, historyId, request.signal), turnFactsStage(state)]);
    return running;
  } catch (e) {
    const err = e as { status?: number; code?: string; message?: string };
    ctx.chatHistory.finish(historyId, {
      status: request.signal.aborted ? "stopped" : "error",
      status_code: err.status ?? 500,
      error: { code: err.code ?? "internal_error", message: err.message ?? String(e) },
    });
    throw e;
  }
}

async function runOn(
  ctx: AppContext,
  request: Request,
  caller: Caller,
  turn: TurnRequest,
  state: RequestState,
): Promise<RunningTurn> {
  const pinnedByFiles = ctx.files.affinity(turn.fileIds, caller);
  // Issue 31: the request log's timeline; a request running two turns (the JSON-output retry) adds to one.
  const tl = (state.timeline ??= new Timeline(state.start));
  // One object, its methods reading the request's parts (issue 35: an open stream keeps its runner's deps).
  const deps = new BusinessTurnDeps(ctx, turn, caller, state.id, tl, pinnedByFiles ?? undefined);
  let running: RunningTurn;
  try {
    running = await runTurn(deps, turn, caller, request.signal);
  } catch (e) {
    throw deps.explain(e);
  }
  state.account = running.account ?? "";
  return running;
}

/**
 * A streamed answer: the turn's events through the surface's stages (coalescing, the renderer), run one after the
 * other inside the turn's stream (staged-turn.ts) — no TransformStream per stage; the SSE body (http/sse.ts) reads
 * what the last one renders.
 */
export function turnText(running: RunningTurn, ...stages: SyncTransformer<any, any>[]): ReadableStream<string[]> {
  throughStages(running, stages);
  return running.events as unknown as ReadableStream<string[]>;
}

/**
 * A streamed answer as its HTTP response: the turn's events through the surface's stages and the SSE step (keep-
 * alives, the meter), all inside the turn's one stream when nothing has read it yet — the response body is that
 * stream, with no TransformStream per stage (issue 35) — else piped as turnText and sseResponse do.
 */
export function turnSse(running: RunningTurn, sse: SseOptions & { headers?: Record<string, string> }, ...stages: SyncTransformer<any, any>[]): Response {
  const body = running instanceof StagedTurn ? running.bodyThrough<Uint8Array>(stages, sseWriter(sse)) : null;
  if (!body) return sseResponse(turnText(running, ...stages), sse);
  return new Response(body, { status: 200, headers: { ...SSE_HEADERS, ...(sse.headers ?? {}) } });
}

/**
 * A non-stream answer: the turn's events read to their end into one result — straight from the runner's reader
 * through the taps while nothing has read or replaced the events (staged-turn.ts), else from their stream.
 */
export function turnResult(running: RunningTurn): Promise<TurnResult> {
  return (running instanceof StagedTurn ? running.collect() : null) ?? collectTurn(running.events);
}
