// coreReduce: SSE frames → CoreEvents (core-upstream §7.2–§7.13). The reducer keeps core's message state and
// emits, per fragment id, only the characters not emitted before — which also de-duplicates continue rounds,
// because the emitted-length table survives snapshots and rounds. Rounds that do not start with a snapshot
// take the line-extractor path (§7.15).
import { PatchState } from "./patch-state";
import { ReferenceCleaner } from "./reference-markers";
import { classifyFailure, classifyStreamError } from "../core/classify";
import { extractLine, type LineType } from "./line-extract";
import type { CoreEvent, SseFrame } from "./types";

export interface ReduceOptions {
  thinkingEnabled: boolean;
  stripReferenceMarkers: boolean;
}

const REFUSAL_PHRASES = ["系统检测到", "敏感内容", "无法响应"];
const LEAK = "CONTENT_FILTER";

type Emit = (ev: CoreEvent) => void;

export class CoreReducer {
  private state = new PatchState();
  private emitted = new Map<string, number>();
  private round = 0;
  private roundTerminal = false;
  private snapshotSeen = false;
  private payloadsInRound = 0;
  private lineMode = false;
  private lineType: LineType;
  private usage: number | undefined;
  private filtered = false;
  private error: { code: string; message: string } | null = null;
  private visible = false;
  private answer = "";
  private refs: ReferenceCleaner;
  private stopped = false;

  constructor(private readonly opts: ReduceOptions) {
    this.lineType = opts.thinkingEnabled ? "thinking" : "text";
    this.refs = new ReferenceCleaner(opts.stripReferenceMarkers, (n) => this.resolveReference(n));
  }

  push(frame: SseFrame, emit: Emit): void {
    if (this.error) return;
    if (frame.comment) {
      emit({ type: "keepalive" });
      return;
    }
    if (frame.event === "ready") {
      this.round++;
      this.state.resetSticky();
      this.roundTerminal = false;
      this.snapshotSeen = false;
      this.payloadsInRound = 0;
      this.lineMode = false;
      const d = safeJson(frame.data) as Record<string, unknown> | null;
      emit({
        type: "round",
        round: this.round,
        requestMessageId: typeof d?.request_message_id === "number" ? d.request_message_id : undefined,
        responseMessageId: typeof d?.response_message_id === "number" ? d.response_message_id : undefined,
        modelType: typeof d?.model_type === "string" ? d.model_type : undefined,
      });
      return;
    }
    if (frame.event === "raw") {
      // A JSON envelope instead of a stream (HTTP 200): always a failure here.
      const body = safeJson(frame.data);
      this.fail(classifyFailure(200, body), envelopeText(body), emit);
      return;
    }
    if (frame.event !== "message") return;
    if (frame.data.trim() === "[DONE]") return;
    const payload = safeJson(frame.data);
    if (!payload || typeof payload !== "object" || Array.isArray(payload)) return;
    const p = payload as Record<string, unknown>;
    if (this.inStreamError(p, emit)) return;
    if (hasContentFilterCode(p)) {
      this.filtered = true;
      this.stopped = true;
      return;
    }
    this.payloadsInRound++;
    // A round whose first payload is not a snapshot (legacy or unknown shapes) takes the line extractor.
    if (this.payloadsInRound === 1 && !PatchState.isSnapshot(p) && this.state.response === undefined) this.lineMode = true;
    if (PatchState.isSnapshot(p)) {
      this.snapshotSeen = true;
      this.lineMode = false;
    }
    if (this.lineMode) {
      this.lineStep(p, emit);
      return;
    }
    const wasTerminal = this.roundTerminal;
    this.state.apply(p);
    const r = this.state.response;
    if (!r) return;
    const status = typeof r.status === "string" ? r.status.toUpperCase() : "";
    if (status === "CONTENT_FILTER") this.filtered = true;
    for (const key of ["accumulated_token_usage", "token_usage"]) {
      const u = r[key];
      if (typeof u === "number" && Number.isFinite(u)) this.usage = u;
    }
    if (!wasTerminal && !this.stopped) this.emitFragments(r, emit);
    if (status === "FINISHED" || status === "CONTENT_FILTER") this.roundTerminal = true;
  }

  end(emit: Emit): void {
    if (this.error) return;
    const tail = this.refs.flush();
    if (tail) this.emitText(tail, emit);
    if (this.usage !== undefined) emit({ type: "usage", tokens: this.usage });
    const r = this.state.response;
    const status = typeof r?.status === "string" ? r.status.toUpperCase() : "";
    let outcome: "finished" | "content_filter" | "truncated" = status === "FINISHED" ? "finished" : "truncated";
    if (this.filtered || status === "CONTENT_FILTER") outcome = "content_filter";
    else if (this.answer.length < 200 && isRefusal(this.answer)) outcome = "content_filter";
    emit({ type: "end", outcome, visible: this.visible });
  }

  private fail(code: string, message: string, emit: Emit): void {
    this.error = { code, message };
    emit({ type: "end", outcome: "error", code, message: message || "core reported an error", visible: this.visible });
  }

  private inStreamError(p: Record<string, unknown>, emit: Emit): boolean {
    if ("error" in p && !("v" in p)) {
      const e = p.error;
      this.fail("upstream_error", typeof e === "string" && e ? e : JSON.stringify(e), emit);
      return true;
    }
    if (p.type === "error") {
      this.fail(classifyStreamError(p), typeof p.content === "string" ? p.content : "upstream error", emit);
      return true;
    }
    return false;
  }

  private emitFragments(r: Record<string, unknown>, emit: Emit): void {
    const frags = Array.isArray(r.fragments) ? r.fragments : [];
    for (let i = 0; i < frags.length; i++) {
      const f = frags[i] as Record<string, unknown> | null;
      if (!f || typeof f !== "object") continue;
      const type = typeof f.type === "string" ? f.type.toUpperCase() : "";
      const channel = type === "THINK" || type === "THINKING" ? "thinking" : type === "RESPONSE" ? "text" : null;
      if (!channel || typeof f.content !== "string") continue;
      const key = Number.isInteger(f.id) ? `id:${f.id}` : `ix:${i}`;
      this.emitSuffix(key, f.content, channel, emit);
      if (this.stopped) return;
    }
    for (const [field, channel] of [["thinking_content", "thinking"], ["content", "text"]] as const) {
      const v = r[field];
      if (typeof v === "string") this.emitSuffix(`legacy:${field}`, v, channel, emit);
    }
  }

  private emitSuffix(key: string, content: string, channel: "thinking" | "text", emit: Emit): void {
    const done = this.emitted.get(key) ?? 0;
    if (content.length <= done) return;
    this.emitted.set(key, content.length);
    this.emitPiece(content.slice(done), channel, emit);
  }

  private emitPiece(piece: string, channel: "thinking" | "text", emit: Emit): void {
    const leak = piece.indexOf(LEAK);
    if (leak >= 0) {
      // A leaked filter marker (§7.11): keep what came before it, then the answer is over.
      piece = piece.slice(0, leak).replace(/[ \t\r]+$/, "");
      if (!/\S/.test(piece) && !piece.includes("\n")) piece = "";
      this.filtered = true;
      this.stopped = true;
    }
    if (!piece) return;
    if (channel === "thinking") emit({ type: "thinking", text: piece });
    else {
      const out = this.refs.push(piece);
      if (out) this.emitText(out, emit);
    }
  }

  private emitText(text: string, emit: Emit): void {
    this.answer += text;
    if (/\S/.test(text)) this.visible = true;
    emit({ type: "text", text });
  }

  private lineStep(p: Record<string, unknown>, emit: Emit): void {
    const r = extractLine(p, this.opts.thinkingEnabled, this.lineType);
    this.lineType = r.nextType;
    if (r.contentFilter) {
      this.filtered = true;
      this.stopped = true;
    }
    if (this.stopped) return;
    for (const part of r.parts) this.emitPiece(part.text, part.type === "thinking" ? "thinking" : "text", emit);
    if (r.stop) {
      this.state.root = { response: { status: "FINISHED" } };
      this.stopped = true;
    }
  }

  /** `[reference:N]` → the URL of entry N of the newest RESPONSE fragment's references (§7.8). */
  private resolveReference(n: number): string | null {
    const frags = (this.state.response?.fragments ?? []) as Record<string, unknown>[];
    if (!Array.isArray(frags)) return null;
    const resp = [...frags].reverse().find((f) => f && f.type === "RESPONSE");
    const refs = resp && Array.isArray(resp.references) ? (resp.references as Record<string, unknown>[]) : [];
    const ref = refs[n];
    if (!ref) return null;
    const target = frags.find((f) => f && f.id === ref.id);
    if (!target) return null;
    if (target.type === "TOOL_OPEN") return ((target.result as Record<string, unknown>)?.url as string) ?? null;
    const results = target.results as Record<string, unknown>[] | undefined;
    return (Array.isArray(results) && (results[0]?.url as string)) || null;
  }
}

function safeJson(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    return null;
  }
}

function envelopeText(body: unknown): string {
  const b = (body ?? {}) as Record<string, any>;
  return b?.data?.biz_msg || b?.data?.biz_data?.msg || b?.msg || "core answered with an error envelope";
}

/** `{"code":"content_filter"}` at any depth, or a nested `{p:*status*, v:"CONTENT_FILTER"}`. */
function hasContentFilterCode(v: unknown, depth = 0): boolean {
  if (!v || typeof v !== "object" || depth > 8) return false;
  if (Array.isArray(v)) return v.some((x) => hasContentFilterCode(x, depth + 1));
  const o = v as Record<string, unknown>;
  if (typeof o.code === "string" && o.code.toLowerCase() === "content_filter") return true;
  for (const [k, x] of Object.entries(o)) if (k !== "v" || typeof x === "object") if (hasContentFilterCode(x, depth + 1)) return true;
  return false;
}

function isRefusal(text: string): boolean {
  const compact = text.replace(/\s+/g, "");
  return REFUSAL_PHRASES.every((p) => compact.includes(p));
}

export function coreReduce(opts: ReduceOptions): TransformStream<SseFrame, CoreEvent> {
  const reducer = new CoreReducer(opts);
  return new TransformStream<SseFrame, CoreEvent>({
    transform(frame, c) {
      reducer.push(frame, (ev) => c.enqueue(ev));
    },
    flush(c) {
      reducer.end((ev) => c.enqueue(ev));
    },
  });
}
