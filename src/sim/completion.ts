// chat/completion and chat/continue (core-upstream §5.6, §5.7, §7, §12.2): validation of the body, the
// session, its busy state and the referenced files; scenario selection; then one round of the scenario
// written as core's SSE (or the round's plain HTTP answer instead of a stream).
import { estimateTokens } from "../pipeline/token-estimate";
import type { AccountStore } from "./accounts";
import { expiryReply } from "./accounts";
import type { SimClock } from "./clock";
import { demoAnswer } from "./demo-model";
import { bizFail, invalid, type JsonReply } from "./envelope";
import type { FileStore } from "./files";
import { answerText, newMessage } from "./message-model";
import { powRejection } from "./pow";
import { Rng, type RngFamily } from "./rng";
import { RoundWriter } from "./round-writer";
import { BUSY_TEXT, type BuildContext } from "./scenarios";
import { buildScript, directiveSelection, type ScenarioQueue, type Selection } from "./select";
import type { SessionStore, SimSession } from "./sessions";
import { planWrites, playBody } from "./transport";
import type { Params, RecordedRequest, ScenarioScript, SimCounters, SimSwitches } from "./types";

import type { LiveStreams } from "./live-streams";
export interface CompletionDeps {
  sw: SimSwitches;
  seed: number;
  clock: SimClock;
  rng: RngFamily;
  accounts: AccountStore;
  files: FileStore;
  sessions: SessionStore;
  queue: ScenarioQueue;
  counters: SimCounters;
  attempts: Map<string, number>;
  liveStreams: LiveStreams;
}

export type CompletionResult = { reply: JsonReply } | { stream: Response };

const SSE_HEADERS = { "Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-cache" };
const isBool = (v: unknown) => typeof v === "boolean";

function validCompletionBody(b: any): string | null {
  if (!b || typeof b !== "object" || Array.isArray(b)) return "body must be a JSON object";
  if (typeof b.chat_session_id !== "string") return "chat_session_id must be a string";
  if (typeof b.model_type !== "string") return "model_type must be a string";
  if (!("parent_message_id" in b) || !(b.parent_message_id === null || Number.isInteger(b.parent_message_id))) return "parent_message_id must be an integer or null";
  if (typeof b.prompt !== "string") return "prompt must be a string";
  if (!Array.isArray(b.ref_file_ids) || !b.ref_file_ids.every((x: unknown) => typeof x === "string")) return "ref_file_ids must be an array of strings";
  if (!isBool(b.thinking_enabled)) return "thinking_enabled must be a boolean";
  if (!isBool(b.search_enabled)) return "search_enabled must be a boolean";
  return null;
}

function validContinueBody(b: any): string | null {
  if (!b || typeof b !== "object" || Array.isArray(b)) return "body must be a JSON object";
  if (typeof b.chat_session_id !== "string") return "chat_session_id must be a string";
  if (!Number.isInteger(b.message_id)) return "message_id must be an integer";
  return null;
}

function busyAnswer(d: CompletionDeps): CompletionResult {
  d.counters.busy_rejections++;
  if (d.sw.busyForm === "json") return { reply: { status: 200, json: { msg: BUSY_TEXT } } };
  const body = `data: ${JSON.stringify({ type: "error", content: BUSY_TEXT })}\n\n`;
  return { stream: new Response(body, { headers: SSE_HEADERS }) };
}

export async function handleCompletion(d: CompletionDeps, body: any, account: string, isContinue: boolean, rec: RecordedRequest): Promise<CompletionResult> {
  const bad = isContinue ? validContinueBody(body) : validCompletionBody(body);
  if (bad) return { reply: invalid(bad) };
  const s = d.sessions.get(body.chat_session_id);
  if (!s || s.account !== account || s.deleted) return { reply: invalid("chat session not found") };
  rec.session_id = s.id;
  // The busy tail is real time: the virtual clock only moves with events.
  if (s.live || Date.now() < s.busyUntilMs) return busyAnswer(d);
  return isContinue ? continueRound(d, s, body, rec) : completionRound(d, s, body, account, rec);
}

function buildContext(d: CompletionDeps, prompt: string, thinking: boolean, search: boolean, attempt: number): BuildContext {
  const demo = demoAnswer(prompt, thinking);
  const ctx: BuildContext = {
    thinking,
    search,
    demo,
    prompt,
    attempt,
    expiry: () => expiryReply(d.sw.expiryForm),
    powRejection: () => powRejection(d.sw.powRejectForm),
    build: (id: string | undefined, params: Params) => buildScript(id ? { id, params, attemptKey: "" } : null, { ...ctx, attempt: 0 }),
  };
  return ctx;
}

function completionRound(d: CompletionDeps, s: SimSession, body: any, account: string, rec: RecordedRequest): CompletionResult {
  const expectedParent = s.lastResponseId === 0 ? null : s.lastResponseId;
  if (body.parent_message_id !== expectedParent) return { reply: invalid(`parent_message_id must be ${expectedParent}`) };
  const refTexts: string[] = [];
  for (const id of body.ref_file_ids as string[]) {
    const f = d.files.get(id);
    // A file of another account (or an unknown id) is core's HTTP 200 biz_code 9 (§5.6).
    if (!f || f.account !== account) return { reply: { status: 200, json: bizFail(9, "invalid ref file id") } };
    refTexts.push(f.text);
  }
  d.counters.completions++;
  const prompt: string = body.prompt;
  const facts = { account, session: s.id, model_type: body.model_type, thinking_enabled: body.thinking_enabled, search_enabled: body.search_enabled, texts: [prompt, ...refTexts] };
  const sel: Selection | null = d.queue.take(facts) ?? directiveSelection([prompt, ...refTexts]);
  let attempt = 0;
  if (sel) {
    attempt = d.attempts.get(sel.attemptKey) ?? 0;
    d.attempts.set(sel.attemptKey, attempt + 1);
  }
  const script = buildScript(sel, buildContext(d, prompt, body.thinking_enabled, body.search_enabled, attempt));
  rec.scenario = script.name;
  const round = script.rounds[0];
  if (!round) return { reply: invalid(`scenario ${script.name} has no rounds`) };
  if ("http" in round) return { reply: { status: round.http.status, json: round.http.json ?? null, text: round.http.text } };
  const requestId = script.messageIds?.request ?? s.lastResponseId + 1;
  const responseId = script.messageIds?.response ?? requestId + 1;
  const model = newMessage({ requestMessageId: requestId, responseMessageId: responseId, modelType: body.model_type, thinkingEnabled: body.thinking_enabled, searchEnabled: body.search_enabled });
  s.messages += 2;
  s.lastResponseId = responseId;
  d.sessions.setMessage(s, { script, model, round: 0, promptTokens: estimateTokens(prompt), seed: script.seed ?? d.seed });
  return { stream: play(d, s, 0) };
}

function continueRound(d: CompletionDeps, s: SimSession, body: any, rec: RecordedRequest): CompletionResult {
  if (!s.current || body.message_id !== s.lastResponseId) return { reply: invalid(`message_id must be ${s.lastResponseId}`) };
  const next = s.current.round + 1;
  const round = s.current.script.rounds[next];
  rec.scenario = s.current.script.name;
  if (!round) return { reply: invalid("the message cannot be continued") };
  d.counters.continues++;
  s.current.round = next;
  if ("http" in round) return { reply: { status: round.http.status, json: round.http.json ?? null, text: round.http.text } };
  return { stream: play(d, s, next) };
}

/** Writes round `index` of the session's current message and streams it; the session is live until the body ends. */
function play(d: CompletionDeps, s: SimSession, index: number): Response {
  const cur = s.current!;
  const script: ScenarioScript = cur.script;
  const round = script.rounds[index] as { unseen?: string; steps: Record<string, unknown>[] };
  const key = `${s.id}|${cur.model.responseMessageId}|${index}`;
  const pieces = new RoundWriter({
    model: cur.model,
    shape: script.shape ?? "newer",
    round: index,
    unseen: round.unseen ?? "",
    defaults: script.defaults ?? {},
    clock: d.clock,
    rng: new Rng(`${cur.seed}|writer|${key}`),
    idGaps: d.sw.idGaps,
    omitModelType: d.sw.omitModelType,
    estimateUsage: () => cur.promptTokens + estimateTokens(answerText(cur.model)),
  }).run(round.steps);
  const writes = planWrites(pieces, script.transport?.write ?? d.sw.write, new Rng(`${cur.seed}|cuts|${key}`));
  const compression = script.transport?.compression ?? d.sw.compression;
  s.live = true;
  const endLive = d.liveStreams.begin(s.account);
  const stream = playBody(
    writes,
    { compression, yieldBetweenWrites: (script.transport?.write ?? d.sw.write) === "byte" || (script.transport?.write ?? d.sw.write) === "random" },
    {
      onEnd: () => {
        endLive();
        s.live = false;
        s.kill = null;
        s.updatedAt = d.clock.peek();
        s.busyUntilMs = Date.now() + d.sw.busyTailMs;
      },
      setKill: (k) => (s.kill = k),
    },
  );
  const headers: Record<string, string> = { ...SSE_HEADERS };
  if (compression !== "none") headers["Content-Encoding"] = compression;
  return new Response(stream, { headers });
}
