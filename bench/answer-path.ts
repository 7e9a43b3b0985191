// The gateway's own answer path for a non-stream chat answer, in process and without streams: core's SSE body
// decoded into frames, the round tracker, the reducer and assembler (coreToTurnSteps as a turn builds them, no
// tools), the accumulator, the prompt build and the chat renderer's JSON. Shared by bench/nonstream-pipeline.ts
// (its cost by stage) and bench/gateway-proxy.ts (the floor references, which answer with it).
import { SseDecoder, type SseFrame } from "../src/core/sse";
import { RoundTracker } from "../src/core/round-tracker";
import { coreToTurnSteps } from "../src/pipeline/core-to-turn";
import { newReport } from "../src/pipeline/turn-assembler";
import { VisibleCleaner } from "../src/pipeline/cleaner";
import { modelEchoCheck } from "../src/pipeline/model-echo";
import { TurnAccumulator } from "../src/pipeline/turn-accumulator";
import { estimateTokens } from "../src/pipeline/token-estimate";
import { renderChatCompletion } from "../src/surfaces/chat/render";
import { buildPrompt } from "../src/prompt/build";
import type { TurnRequest } from "../src/pipeline/types";

const quiet = { warn() {}, info() {}, debug() {}, error() {}, log() {}, level: "info" } as never;
const noCurrentInputFile = { enabled: false, min_chars: 0 } as never;

/** A one-message chat turn as the normaliser makes it. */
export function chatTurn(text: string): TurnRequest {
  return { surface: "chat", requestedModel: "core-v4-flash", model: "core-v4-flash", turns: [{ role: "user", text }], tools: [], toolChoice: { kind: "auto" }, singleCall: false, thinking: false, exposeThinking: false, highEffort: false, stream: false, files: [], fileIds: [], passThrough: {} } as unknown as TurnRequest;
}

/** The prompt core is sent for `turn`. */
export function promptOf(turn: TurnRequest): string {
  return buildPrompt(turn, { currentInputFile: noCurrentInputFile }).prompt;
}

/**
 * Core's answer `chunks` (its SSE body as read) to the chat completion's JSON text. `stage` stops early for
 * bench/nonstream-pipeline.ts: 0 decodes only, 1 also reduces and accumulates, 2 (the default) renders too.
 */
export function answerJson(chunks: Uint8Array[], prompt: string, stage = 2): string {
  const d = new SseDecoder();
  const frames: SseFrame[] = [];
  for (const c of chunks) frames.push(...d.push(c));
  frames.push(...d.end());
  if (stage < 1) return "";
  const tracker = new RoundTracker();
  for (const f of frames) tracker.observe(f);
  return answerOfFrames(frames, prompt, stage);
}

/** Decoded (and tracked) frames to the chat completion's JSON text: answerJson's steps after the decoder. */
export function answerOfFrames(frames: SseFrame[], prompt: string, stage = 2): string {
  const steps = coreToTurnSteps(
    { thinkingEnabled: false, stripReferenceMarkers: true, searchEnabled: false },
    { exposeThinking: false, newCallId: () => "call_x", textCleaner: new VisibleCleaner(), thinkingCleaner: { push: (t) => t, flush: () => "" }, promptTokens: estimateTokens(prompt), roundWatch: modelEchoCheck("default", quiet) },
    newReport(),
  );
  const acc = new TurnAccumulator();
  for (const ev of steps.push(frames)) acc.push(ev);
  for (const ev of steps.end()) acc.push(ev);
  if (acc.text === "") throw new Error("no answer text: the body was not an answer");
  if (stage < 2) return "";
  return JSON.stringify(renderChatCompletion({ id: "chatcmpl-x", created: 1, model: "core-v4-flash", exposeThinking: false }, acc.result()));
}
