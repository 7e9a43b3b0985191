// One attempt of a turn on one account (or the caller's own token): build the prompt, upload the context file
// and inline files, start the completion, and pipe core's frames through the detector stage (core-to-turn.ts).
import type { AppContext } from "../context";
import type { Caller } from "../accounts/caller";
import { effectiveCompat, effectiveCurrentInputFile } from "../config/effective";
import { findAccount } from "../config/identity";
import type { ProxySpec } from "../core/proxy-spec";
import { CoreError } from "../core/errors";
import { startCompletion } from "../core/attempt";
import { uploadFile } from "../core/upload";
import { modelFlags } from "../models/flags";
import { buildPrompt } from "../prompt/build";
import { randomHex } from "../util/random";
import { none, pushed } from "../util/none";
import { VisibleCleaner } from "../pipeline/cleaner";
import { coreToTurnSource, coreToTurnSteps } from "../pipeline/core-to-turn";
import { readerSource, stagedStream, type BatchSource } from "../pipeline/staged-stream";
import { asFrameSource } from "../core/completion";
import type { AttemptFn, StartedAttempt } from "./types";
import type { CleanerLike } from "../pipeline/turn-assembler";
import type { TurnEvent } from "../pipeline/types";
import { estimateTokens } from "../pipeline/token-estimate";
import { newReport, type DetectorLike, type FallbackCall } from "../pipeline/turn-assembler";
import type { TurnRequest } from "../pipeline/types";
import { makeDetector, makeFallback } from "../pipeline/svcml-stage";
import { modelEchoCheck } from "../pipeline/model-echo";
import { captureSink } from "../store/capture-sink";
import type { RoundInfo, RoundSink } from "../core/completion";
import { markRound, timedCore, type Timeline } from "../metering/timeline";

export function proxyFor(ctx: AppContext, account: string | null): ProxySpec | undefined {
  if (!account) return undefined;
  const cfg = ctx.config.get();
  const acc = cfg.accounts ? findAccount(cfg.accounts, account) : undefined;
  if (!acc?.proxy_id) return undefined;
  const p = (cfg.proxies ?? []).find((x) => x.id === acc.proxy_id);
  if (!p) return undefined;
  return { type: p.type as ProxySpec["type"], host: p.host, port: Number(p.port), username: p.username || undefined, password: p.password || undefined };
}

/** Tool-call ids in the shape of each surface (D0.2). */
export function callIdFactory(surface: TurnRequest["surface"]): () => string {
  return surface === "messages" ? toolUseId : callId;
}

// Shared, not made per request: an open stream's assembler keeps its factory for as long as it lives.
const toolUseId = () => `toolu_${randomHex(24)}`;
const callId = () => `call_${randomHex(24)}`;

export function makeAttempt(ctx: AppContext, turn: TurnRequest, caller: Caller, requestId: string, timeline?: Timeline): AttemptFn {
  return (args) => runAttempt(ctx, turn, caller, requestId, timeline, args);
}

/** One attempt (what makeAttempt's function does), for a caller that keeps the request's parts as data. */
export async function runAttempt(ctx: AppContext, turn: TurnRequest, caller: Caller, requestId: string, timeline: Timeline | undefined, { account, token, forceFileMode, signal }: Parameters<AttemptFn>[0]): Promise<StartedAttempt> {
  const cfg = ctx.config.get();
  const built = buildPrompt(turn, { currentInputFile: effectiveCurrentInputFile(cfg), forceFileMode });
  const flags = modelFlags(turn.model as Parameters<typeof modelFlags>[0]);
  const proxy = proxyFor(ctx, account);
  const core = timedCore(ctx.core, timeline);
  // The shared empty list for a completion with no files (most of them): core's request keeps it while it streams.
  let refFileIds: string[] = none();
  let uploadedBytes = 0;
  if (built.contextFile) {
    try {
      const f = await uploadFile(core, token, { data: new TextEncoder().encode(built.contextFile.text), filename: built.contextFile.name, mime: "text/plain; charset=utf-8", modelType: flags.model_type }, { signal, proxy });
      refFileIds = pushed(refFileIds, f.id);
    } catch (e) {
      if (signal.aborted || (e instanceof CoreError && e.kind === "upstream_auth")) throw e;
      throw new CoreError("current_input_file_upload_failed", `context file upload failed: ${(e as Error).message}`);
    }
  }
  for (const file of turn.files) {
    const f = await uploadFile(core, token, { data: file.data, filename: file.filename, mime: file.mime, modelType: flags.model_type }, { signal, proxy });
    refFileIds = pushed(refFileIds, f.id);
    uploadedBytes += file.data.byteLength;
    ctx.files.remember(f.id, { account, tokenHash: account ? undefined : caller.ownerHash });
  }
  for (const id of turn.fileIds) if (!refFileIds.includes(id)) refFileIds = pushed(refFileIds, id);
  // An account at its daily cap gets no session either: the runner moves on at once. An account without pacing
  // (the default) has nothing to check or wait for.
  const paced = account ? ctx.pacer.pacingFor(account) : null;
  if (account && paced) ctx.pacer.assertUnderCap(account, paced);
  const started = await startCompletion(
    core,
    token,
    { modelType: flags.model_type, prompt: built.prompt, refFileIds, thinking: turn.thinking, search: flags.search_enabled, passThrough: turn.passThrough },
    // Pacing (issue 32): the account's least interval between completion starts, and its daily cap.
    {
      signal,
      proxy,
      onRound: roundHook(ctx, requestId, account, timeline),
      beforeSend: account && paced ? (s) => ctx.pacer.beforeCompletion(account, s) : undefined,
    },
  );
  if (account) ctx.accounts.mark(account, "ok", "completion accepted");
  const promptTokens = estimateTokens(built.prompt) + estimateTokens(built.contextFile?.text ?? "") + Math.floor(uploadedBytes / 3);
  const report = newReport();
  const toolMode = turn.tools.length > 0;
  const suppress = turn.toolChoice.kind === "none";
  const newCallId = callIdFactory(turn.surface);
  const detector: DetectorLike | undefined = toolMode ? makeDetector({ tools: turn.tools, suppress, newId: newCallId }) : undefined;
  const fallback: ((t: string) => FallbackCall[]) | undefined = toolMode && !suppress ? makeFallback(turn.tools) : undefined;
  const steps = coreToTurnSteps(
    { thinkingEnabled: turn.thinking, stripReferenceMarkers: effectiveCompat(cfg).strip_reference_markers, searchEnabled: flags.search_enabled },
    {
      exposeThinking: turn.exposeThinking,
      detector,
      fallback,
      newCallId,
      textCleaner: new VisibleCleaner(),
      // Thinking is cleaned only when it is shown: a hidden one needs no cleaner of its own per stream.
      thinkingCleaner: turn.exposeThinking ? new VisibleCleaner() : NO_THINKING_CLEANER,
      promptTokens,
      roundWatch: modelEchoCheck(flags.model_type, ctx.log),
    },
    report,
  );
  return new CoreAttempt(started.sessionId, account, coreToTurnSource(asFrameSource(started) ?? readerSource(started.frames), steps), promptTokens, built.prompt);
}

/**
 * Core's round hook for one attempt: marks the request's timeline and opens the round's capture sink. One closure
 * per attempt (issue 35: it was two, the timeline's wrapper around the capture's), kept while the stream is open.
 */
function roundHook(ctx: AppContext, chainKey: string, account: string | null, tl: Timeline | undefined): (round: RoundInfo) => RoundSink | undefined {
  return (round) => {
    if (tl) markRound(tl, round);
    return captureSink(ctx.captures, chainKey, account, round);
  };
}

/** Never called: the assembler cleans thinking only when it is exposed. */
const NO_THINKING_CLEANER: CleanerLike = { push: (t) => t, flush: () => "" };

/**
 * A started attempt whose events are read straight from core's frames through the detector step (`source`, what
 * the runner reads); `events` builds a stream over it only for a reader that asks for one (issue 35: no stream
 * and pipe of its own per open stream).
 */
class CoreAttempt implements StartedAttempt {
  private stream: ReadableStream<TurnEvent[]> | null = null;

  constructor(
    readonly sessionId: string,
    readonly account: string | null,
    readonly source: BatchSource<TurnEvent>,
    readonly promptTokens: number,
    public finalPrompt: string | undefined,
  ) {}

  get events(): ReadableStream<TurnEvent[]> {
    return (this.stream ??= stagedStream(this.source, null));
  }
}
