// coreReduce: SSE frames → CoreEvents (core-upstream §7.4–§7.16). Rounds arrive joined in one frame stream,
// each starting with `ready`. A round whose first payload is a snapshot takes the reducer path: core's message
// state is kept (PatchState) and, per fragment id, only the characters not emitted before are emitted — which
// also de-duplicates continue rounds, because the emitted-length table survives snapshots and rounds. Any
// other round takes the line-extractor path (§7.15) with the UTF-8 overlap trim instead of fragment ids.
// Text then passes the leaked-marker cut and the reference-marker cleaner (§7.16) before it leaves.
import { classifyFailure, classifyStreamError, envelopeMessage } from "../core/classify";
import { parseJsonObject } from "../util/json";
import { CitationLinks } from "./citation-links";
import { LeakGuard, hasFilterSignal, isRefusalSentence } from "./filter-text";
import { extractPayload, type LineType } from "./line-extract";
import { overlapTrim } from "./overlap-trim";
import { PatchState } from "./patch-state";
import { ReferenceCleaner, type MarkerResolvers } from "./reference-markers";
import type { CoreEvent, ResolvedReference } from "./types";
import { frameJson } from "../core/sse";
import type { CoreFrame } from "../core/completion";
import { RopeBound } from "../util/rope-bound";

export interface ReduceOptions {
  /** Thinking requested upstream; thinking text is emitted either way (the pipeline hides it). */
  thinkingEnabled: boolean;
  /** compat.strip_reference_markers: strip `[reference:N]`, else resolve it to `[N](url)`. */
  stripReferenceMarkers: boolean;
  /** Search allowed upstream: enables legacy `[citation:N]` links on the line-extractor path (§7.16). */
  searchEnabled?: boolean;
}

type Channel = "thinking" | "text";
type Emit = (ev: CoreEvent) => void;
type Obj = Record<string, unknown>;

/** The refusal rule looks at answers shorter than this (§7.11). */
const REFUSAL_MAX_CHARS = 200;

export class CoreReducer implements MarkerResolvers {
  private readonly state = new PatchState();
  /** Characters emitted per fragment key; survives snapshots and rounds (§7.7). */
  private readonly emitted = new Map<FragmentKey, number>();
  /** References passed on per RESPONSE fragment key (made when the first references arrive). */
  private refsPassed: Map<FragmentKey, number> | null = null;
  private round = 0;
  private payloadsInRound = 0;
  /** Reducer path: the round's status became FINISHED / CONTENT_FILTER; later payloads emit nothing. */
  private roundTerminal = false;
  private lineMode = false;
  private lineType: LineType;
  /** Line path: a stop (status FINISHED, `[DONE]`) in this round. */
  private lineFinished = false;
  private usage: number | undefined;
  /** The last payload's accumulated_token_usage and token_usage: two fields, not a tuple per payload. */
  private lastAccumulatedUsage: unknown = undefined;
  private lastTokenUsage: unknown = undefined;
  private filtered = false;
  /** Nothing more is emitted (a filter verdict or a leaked marker). */
  private stopped = false;
  private failed = false;
  private visible = false;
  private answerLength = 0;
  private answerHead = "";
  // Per channel as fields of the reducer, not a record per concern (issue 35: an open stream keeps its reducer,
  // and each record was one more object).
  /** Raw channel text so far, for the line path's overlap trim. */
  private thinkingSoFar = "";
  private textSoFar = "";
  private readonly thinkingBound = new RopeBound();
  private readonly textBound = new RopeBound();
  private readonly thinkingLeak = new LeakGuard();
  private readonly textLeak = new LeakGuard();
  private readonly refs: ReferenceCleaner;
  private readonly links: CitationLinks | null;

  /** Thinking requested upstream (the options' one field read after construction: no options object kept). */
  private readonly thinkingEnabled: boolean;

  constructor(opts: ReduceOptions) {
    this.thinkingEnabled = opts.thinkingEnabled;
    this.lineType = opts.thinkingEnabled ? "thinking" : "text";
    this.links = opts.searchEnabled ? new CitationLinks() : null;
    // The reducer resolves the markers itself (its methods below): no resolver closures per stream (issue 35).
    this.refs = new ReferenceCleaner(opts.stripReferenceMarkers, this);
  }

  /** `[reference:N]` → url (MarkerResolvers, for the marker cleaner). */
  reference(n: number, zeroSeen: boolean): string | null {
    return this.lineMode ? (this.links?.get(zeroSeen ? n + 1 : n) ?? null) : this.resolveMarker(n);
  }

  /** `[citation:N]` → url (MarkerResolvers). */
  citation(n: number): string | null {
    return this.lineMode && this.links ? this.links.get(n) : null;
  }

  push(frame: CoreFrame, emit: Emit): void {
    if (this.failed) return;
    if (frame.failure) {
      // The core client's typed end of a broken answer (issue 17: an event, not an error line to re-classify).
      this.fail(frame.failure, frame.data, emit);
      return;
    }
    if (frame.comment) {
      emit({ type: "keepalive" });
      return;
    }
    switch (frame.event) {
      case "ready":
        this.startRound(frame.data, emit);
        return;
      case "raw":
        this.envelope(frame.data, emit);
        return;
      case "message":
        this.payload(frame, emit);
        return;
      default:
        // update_session, finish, title, close and unknown events carry nothing for the answer.
        return;
    }
  }

  /**
   * A batch of frames, as the core client hands on what one read completed. A run of bare token frames
   * (`{"v":"…"}`) that keeps appending to the string the payload before it appended to is applied as one
   * append of the joined text: the same state and the same text out, one pass through the per-payload work
   * instead of one per token (issue 17: a 2,000-token burst). The marker cleaner does not depend on where text
   * is cut; the leak guard does in one place — spaces right before a leaked marker are trimmed with it when they
   * arrive in the same piece (docs/choices.md). Only on the reducer path with a string append in progress;
   * anything else goes frame by frame.
   */
  pushAll(frames: CoreFrame[], emit: Emit): void {
    for (let i = 0; i < frames.length; ) {
      const frame = frames[i]!;
      if (this.failed || this.lineMode || !this.state.appending || this.payloadsInRound === 0) {
        this.push(frame, emit);
        i++;
        continue;
      }
      let j = i;
      while (j < frames.length && bareToken(frames[j]!) !== undefined) j++;
      if (j - i < 2) {
        this.push(frame, emit);
        i++;
        continue;
      }
      const pieces = new Array<string>(j - i);
      for (let k = i; k < j; k++) pieces[k - i] = frames[k]!.json!.v as string;
      this.payloadObject({ v: pieces.join("") }, emit);
      i = j;
    }
  }

  end(emit: Emit): void {
    if (this.failed) return;
    this.flushHeld(emit);
    if (this.usage !== undefined) emit({ type: "usage", tokens: this.usage });
    emit({ type: "end", outcome: this.outcome(), visible: this.visible });
  }

  private outcome(): "finished" | "content_filter" | "truncated" {
    if (this.filtered) return "content_filter";
    if (this.answerLength < REFUSAL_MAX_CHARS && isRefusalSentence(this.answerHead)) return "content_filter";
    const status = statusOf(this.state.response);
    if (status === "CONTENT_FILTER") return "content_filter";
    if (status === "FINISHED" || this.lineFinished) return "finished";
    return "truncated";
  }

  private startRound(data: string, emit: Emit): void {
    this.round++;
    this.state.resetSticky();
    this.payloadsInRound = 0;
    this.roundTerminal = false;
    this.lineMode = false;
    this.lineFinished = false;
    const d = parseJsonObject(data);
    emit({
      type: "round",
      round: this.round,
      requestMessageId: typeof d?.request_message_id === "number" ? d.request_message_id : undefined,
      responseMessageId: typeof d?.response_message_id === "number" ? d.response_message_id : undefined,
      modelType: typeof d?.model_type === "string" ? d.model_type : undefined,
    });
  }

  /** A JSON envelope where a stream was expected (HTTP 200): always a failure (§5.6, §7.13). */
  private envelope(data: string, emit: Emit): void {
    const body = parseJsonObject(data);
    if (!body) return;
    this.fail(classifyFailure(200, body), envelopeMessage(body) || "core answered with an error envelope", emit);
  }

  private payload(frame: CoreFrame, emit: Emit): void {
    const data = frame.data;
    if (data.charCodeAt(0) !== 123 && data.trim() === "[DONE]") {
      // Core never sends it; the line path treats it as a stop (§7.15 step 2).
      if (this.lineMode) this.lineFinished = true;
      return;
    }
    // Parsed once: the core client's round tracker may already have done it.
    const p = frameJson(frame);
    if (p) this.payloadObject(p, emit);
  }

  private payloadObject(p: Obj, emit: Emit): void {
    this.links?.scan(p);
    if ("error" in p) {
      const e = p.error;
      this.fail("upstream_error", typeof e === "string" && e ? e : (JSON.stringify(e) ?? "upstream error"), emit);
      return;
    }
    if (p.type === "error") {
      this.fail(classifyStreamError(p), typeof p.content === "string" && p.content ? p.content : "upstream error", emit);
      return;
    }
    if (hasFilterSignal(p)) this.filter();
    if (++this.payloadsInRound === 1) this.lineMode = !PatchState.isSnapshot(p);
    if (this.lineMode) this.lineStep(p, emit);
    else this.reduceStep(p, emit);
  }

  private reduceStep(p: Obj, emit: Emit): void {
    const wasTerminal = this.roundTerminal;
    this.state.apply(p);
    const r = this.state.response;
    if (!r) return;
    this.trackUsage(r);
    const status = statusOf(r);
    if (status === "CONTENT_FILTER") this.filter();
    if (!wasTerminal && !this.stopped) {
      this.passReferences(r, emit);
      this.emitFragments(r, emit);
    }
    if (status === "FINISHED" || status === "CONTENT_FILTER") this.roundTerminal = true;
  }

  private lineStep(p: Obj, emit: Emit): void {
    // The state is still kept (tolerantly) for the round's status and the usage figure.
    this.state.apply(p);
    const r = this.state.response;
    if (r) this.trackUsage(r);
    if (this.lineFinished || this.stopped) return;
    const res = extractPayload(p, this.thinkingEnabled, this.lineType, { keepThinking: true });
    this.lineType = res.nextType;
    if (res.contentFilter) {
      this.filter();
      return;
    }
    for (const part of res.parts) {
      const fresh = overlapTrim(part.type === "thinking" ? this.thinkingSoFar : this.textSoFar, part.text);
      if (fresh) this.emitPiece(fresh, part.type, emit);
    }
    if (res.leaked) this.filter();
    if (res.stop) this.lineFinished = true;
  }

  private filter(): void {
    this.filtered = true;
    this.stopped = true;
  }

  private fail(code: string, message: string, emit: Emit): void {
    this.flushHeld(emit);
    this.failed = true;
    emit({ type: "end", outcome: "error", code, message, visible: this.visible });
  }

  /** U = the last numeric accumulated_token_usage (token_usage is an alias) that changed (§7.12). */
  private trackUsage(r: Obj): void {
    const accumulated = r.accumulated_token_usage;
    const tokens = r.token_usage;
    if (isUsage(accumulated) && accumulated !== this.lastAccumulatedUsage) this.usage = accumulated;
    if (isUsage(tokens) && tokens !== this.lastTokenUsage) this.usage = tokens;
    this.lastAccumulatedUsage = accumulated;
    this.lastTokenUsage = tokens;
  }

  private emitFragments(r: Obj, emit: Emit): void {
    const frags = r.fragments;
    if (Array.isArray(frags)) {
      for (let i = 0; i < frags.length; i++) {
        const f = frags[i] as Obj | null;
        if (!f || typeof f !== "object") continue;
        const channel = channelOf(f.type);
        if (!channel || typeof f.content !== "string") continue;
        this.emitSuffix(fragmentKey(f, i), f.content, channel, emit, this.appendedTo(f, "content"));
        if (this.stopped) return;
      }
    }
    // Legacy string fields [unverified] feed the channels the same way.
    if (typeof r.thinking_content === "string") this.emitSuffix("legacy:thinking_content", r.thinking_content, "thinking", emit, this.appendedTo(r, "thinking_content"));
    if (typeof r.content === "string") this.emitSuffix("legacy:content", r.content, "text", emit, this.appendedTo(r, "content"));
  }

  /** The string the payload just appended to `obj[key]`, if it did. */
  private appendedTo(obj: Obj, key: string): string | undefined {
    return this.state.appendedTo(obj, key);
  }

  /**
   * Emits what `content` has beyond the characters emitted before. When the payload appended `appended` and
   * exactly that is new, it is the suffix: `content` ends with it, and slicing `content` would flatten the
   * rope of every token so far.
   */
  private emitSuffix(key: FragmentKey, content: string, channel: Channel, emit: Emit, appended?: string): void {
    const done = this.emitted.get(key) ?? 0;
    const length = content.length;
    if (length <= done) return;
    this.emitted.set(key, length);
    this.emitPiece(appended !== undefined && appended.length === length - done ? appended : content.slice(done), channel, emit);
  }

  /** Output cleaning (§7.16) and emission of one raw piece of channel text. */
  private emitPiece(piece: string, channel: Channel, emit: Emit): void {
    let guarded;
    if (channel === "thinking") {
      this.thinkingBound.grew((this.thinkingSoFar += piece), piece.length);
      if (this.stopped) return;
      guarded = this.thinkingLeak.push(piece);
      if (guarded.text) emit({ type: "thinking", text: guarded.text });
    } else {
      this.textBound.grew((this.textSoFar += piece), piece.length);
      if (this.stopped) return;
      guarded = this.textLeak.push(piece);
      const out = this.refs.push(guarded.text);
      if (out) this.emitText(out, emit);
    }
    if (guarded.leaked) this.filter();
  }

  private emitText(text: string, emit: Emit): void {
    if (this.answerLength < REFUSAL_MAX_CHARS) this.answerHead += text.slice(0, REFUSAL_MAX_CHARS);
    this.answerLength += text.length;
    if (!this.visible && /\S/.test(text)) this.visible = true;
    emit({ type: "text", text });
  }

  /** Text held back by the leak guards and the marker cleaner is released at the end of the answer. */
  private flushHeld(emit: Emit): void {
    const thinking = this.thinkingLeak.flush();
    if (thinking) emit({ type: "thinking", text: thinking });
    const text = this.refs.push(this.textLeak.flush()) + this.refs.flush();
    if (text) this.emitText(text, emit);
  }

  /** New entries of RESPONSE fragments' `references` lists, resolved (§7.8, §7.18). */
  private passReferences(r: Obj, emit: Emit): void {
    const frags = r.fragments;
    if (!Array.isArray(frags)) return;
    for (let i = 0; i < frags.length; i++) {
      const f = frags[i] as Obj | null;
      if (!f || typeof f !== "object" || upper(f.type) !== "RESPONSE" || !Array.isArray(f.references)) continue;
      const key = fragmentKey(f, i);
      const passed = this.refsPassed?.get(key) ?? 0;
      if (f.references.length <= passed) continue;
      (this.refsPassed ??= new Map()).set(key, f.references.length);
      const out: ResolvedReference[] = [];
      for (let n = passed; n < f.references.length; n++) {
        const ref = f.references[n] as Obj | null;
        if (!ref || typeof ref !== "object") continue;
        const target = resolveTarget(frags as unknown[], ref);
        out.push({ index: n, fragmentId: typeof ref.id === "number" ? ref.id : -1, type: typeof ref.type === "string" ? ref.type : "", url: target.url, title: target.title });
      }
      if (out.length) emit({ type: "references", references: out });
    }
  }

  /** `[reference:N]` → the URL of entry N of the newest RESPONSE fragment's references (§7.8). */
  private resolveMarker(n: number): string | null {
    const frags = this.state.response?.fragments;
    if (!Array.isArray(frags)) return null;
    for (let i = frags.length - 1; i >= 0; i--) {
      const f = frags[i] as Obj | null;
      if (!f || typeof f !== "object" || upper(f.type) !== "RESPONSE") continue;
      const ref = Array.isArray(f.references) ? (f.references[n] as Obj | undefined) : undefined;
      return ref && typeof ref === "object" ? resolveTarget(frags, ref).url : null;
    }
    return null;
  }
}

/** A reference entry `{id, type}` → the url and title of the fragment it names. */
function resolveTarget(frags: unknown[], ref: Obj): { url: string | null; title: string | null } {
  const target = frags.find((f) => f && typeof f === "object" && (f as Obj).id === ref.id) as Obj | undefined;
  if (!target) return { url: null, title: null };
  const pick = (o: unknown) => {
    const x = o && typeof o === "object" ? (o as Obj) : {};
    return { url: typeof x.url === "string" ? x.url : null, title: typeof x.title === "string" ? x.title : null };
  };
  if (upper(target.type) === "TOOL_OPEN") return pick(target.result);
  return pick(Array.isArray(target.results) ? target.results[0] : undefined);
}

function channelOf(type: unknown): Channel | null {
  const t = upper(type);
  return t === "THINK" || t === "THINKING" ? "thinking" : t === "RESPONSE" ? "text" : null;
}

/**
 * A fragment's key in the emitted tables: its id (a number), or `ix:<index>` for a fragment without one. Numbers
 * and strings never collide as Map keys; no string is built for the usual fragment, once per token.
 */
type FragmentKey = number | string;

function fragmentKey(f: Obj, index: number): FragmentKey {
  return Number.isInteger(f.id) ? (f.id as number) : `ix:${index}`;
}

/** Upper case; core's own spelling (already upper case) is recognised without building a new string per token. */
function upper(v: unknown): string {
  if (typeof v !== "string") return "";
  return v === "RESPONSE" || v === "THINK" || v === "FINISHED" || v === "WIP" ? v : v.toUpperCase();
}

function statusOf(r: Obj | undefined): string {
  return upper(r?.status);
}

/** The text of a `message` frame that is only `{"v": "<string>"}` — a token on the sticky path — else undefined. */
function bareToken(frame: CoreFrame): string | undefined {
  if (frame.event !== "message" || frame.failure || frame.comment) return undefined;
  const p = frameJson(frame);
  if (!p || typeof p.v !== "string") return undefined;
  let keys = 0;
  for (const _ in p) if (++keys > 1) return undefined;
  return p.v;
}

function isUsage(v: unknown): v is number {
  return typeof v === "number" && Number.isFinite(v);
}
