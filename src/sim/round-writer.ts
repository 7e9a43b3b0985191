// Scenario steps → the exact bytes core would send (core-upstream §12.5). The writer keeps core's sticky
// path and op, so it can omit `p` or `o` exactly where core does and write them wherever the sticky value
// would otherwise make the reducer do something else. Every payload is serialised once, here.
import type { SimClock } from "./clock";
import { FILTER_TEMPLATE, snapshotPayload, TIP_TEXT, type Fragment, type MessageModel } from "./message-model";
import type { Rng } from "./rng";
import type { Piece } from "./transport";
import { num, obj, searchResult, splitText, stepKind, str, type StepKind } from "./steps";
import type { Chunk, Step } from "./types";

const encoder = new TextEncoder();
const KEEPALIVE = encoder.encode(": \n\n");

export interface WriterContext {
  model: MessageModel;
  shape: "older" | "newer";
  /** 0 answers chat/completion; i ≥ 1 is the i-th chat/continue. */
  round: number;
  /** Continue rounds: characters the previous round generated but never streamed. */
  unseen: string;
  defaults: { chunk?: Chunk; delay_ms?: number; jitter_ms?: number };
  clock: SimClock;
  rng: Rng;
  idGaps: boolean;
  omitModelType: boolean;
  /** Default `usage` tokens: the local estimate of prompt + answer. */
  estimateUsage(): number;
}

type Habit = "full" | "noOp" | "pathless" | "looseSet";

export class RoundWriter {
  readonly pieces: Piece[] = [];
  private stickyPath: string | undefined;
  private stickyOp: string | undefined;
  private lastWasCite = false;
  private ended = false;

  constructor(private readonly ctx: WriterContext) {}

  private get m(): MessageModel {
    return this.ctx.model;
  }

  private bytes(text: string): void {
    this.pieces.push(encoder.encode(text));
  }

  private data(payload: unknown): void {
    this.ctx.clock.tick();
    this.bytes(`data: ${JSON.stringify(payload)}\n\n`);
  }

  private event(name: string, payload: unknown): void {
    this.ctx.clock.tick();
    this.bytes(`event: ${name}\ndata: ${JSON.stringify(payload)}\n\n`);
  }

  /**
   * One patch. `pathless` and `noOp` say what core leaves out; they only apply when the sticky value is the
   * one needed. `looseSet` is a SET whose op core omits after SET or APPEND alike: on a boolean both replace.
   */
  private patch(p: string, o: string, v: unknown, habit: Habit): void {
    let payload: Record<string, unknown>;
    if (habit === "pathless" && this.stickyPath === p && this.stickyOp === o) payload = { v };
    else if (habit === "noOp" && this.stickyOp === o) payload = { p, v };
    else if (habit === "looseSet" && (this.stickyOp === "SET" || this.stickyOp === "APPEND")) {
      payload = { p, v };
      o = this.stickyOp;
    } else payload = { p, o, v };
    this.stickyPath = p;
    this.stickyOp = o;
    this.lastWasCite = false;
    this.data(payload);
  }

  private newId(): number {
    const id = this.m.nextId;
    this.m.nextId = id + 1 + (this.ctx.idGaps ? this.ctx.rng.int(4) : 0);
    return id;
  }

  private last(): Fragment | undefined {
    return this.m.fragments[this.m.fragments.length - 1];
  }

  private currentStage(): number {
    for (let i = this.m.fragments.length - 1; i >= 0; i--) {
      const s = this.m.fragments[i]!.stage_id;
      if (typeof s === "number") return s;
    }
    return 1;
  }

  private negIndex(id: number): number {
    const i = this.m.fragments.findIndex((f) => f.id === id);
    return i - this.m.fragments.length;
  }

  private tokensOf(text: string, step: Step): string[] {
    const chunk = (step.chunk as Chunk | undefined) ?? this.ctx.defaults.chunk ?? "word";
    return splitText(text, chunk);
  }

  private delayFor(step: Step): void {
    const delay = num(step.delay_ms, this.ctx.defaults.delay_ms ?? 0);
    const jitter = num(step.jitter_ms, this.ctx.defaults.jitter_ms ?? 0);
    const ms = delay + (jitter > 0 ? this.ctx.rng.int(jitter + 1) : 0);
    if (ms > 0) this.pieces.push({ sleep: ms });
  }

  /** Tokens appended to the newest fragment's content: explicit APPEND when the sticky state needs it, else pathless. */
  private contentTokens(tokens: string[], step: Step, firstHabit: Habit = "pathless"): void {
    const f = this.last()!;
    tokens.forEach((t, k) => {
      this.delayFor(step);
      f.content = String(f.content ?? "") + t;
      this.patch("response/fragments/-1/content", "APPEND", t, k === 0 ? firstHabit : "pathless");
    });
  }

  /** A new fragment through `response/fragments` APPEND, then the op-omitted second token (§7.17 C). */
  private appendFragment(frag: Fragment, rest: string[], step: Step): void {
    this.m.fragments.push(frag);
    this.patch("response/fragments", "APPEND", [frag], "full");
    if (rest.length) this.contentTokens(rest, step, "noOp");
  }

  /** The has_pending_fragment dance around a `response` BATCH that appends fragments (§7.17 F). */
  private pendingBatch(frags: Fragment[]): void {
    this.patch("response/has_pending_fragment", "SET", true, "looseSet");
    this.m.fragments.push(...frags);
    this.patch("response", "BATCH", [{ p: "fragments", o: "APPEND", v: frags }, { p: "has_pending_fragment", o: "SET", v: false }], "full");
  }

  run(steps: Step[]): Piece[] {
    for (const step of steps) {
      if (this.ended) break;
      const kind = stepKind(step);
      if (kind) this.step(kind, step[kind], step);
    }
    return this.pieces;
  }

  private step(kind: StepKind, arg: unknown, step: Step): void {
    const m = this.m;
    switch (kind) {
      case "ready": {
        this.stickyPath = this.stickyOp = undefined;
        const ready: Record<string, unknown> = { request_message_id: m.requestMessageId, response_message_id: m.responseMessageId };
        // `model_type` in the step: core echoing a model other than the one asked for (§7.14).
        const echo = obj(arg).model_type;
        if (!this.ctx.omitModelType && !obj(arg).omit_model_type) ready.model_type = typeof echo === "string" ? echo : m.modelType;
        this.event("ready", ready);
        return;
      }
      case "update_session":
        this.event("update_session", { updated_at: this.ctx.clock.tick() });
        return;
      case "snapshot":
        return this.snapshot(obj(arg));
      case "think":
        return this.think(typeof arg === "string" ? arg : str(obj(arg).text), step);
      case "think_end": {
        const secs = num(obj(arg).elapsed_secs, 0.765374503);
        const f = this.last();
        if (f) f.elapsed_secs = secs;
        this.patch("response/fragments/-1/elapsed_secs", "SET", secs, "full");
        return;
      }
      case "answer":
        return this.answer(typeof arg === "string" ? arg : str(obj(arg).text), step);
      case "search":
        return this.search(obj(arg));
      case "open":
        return this.open(Array.isArray(arg) ? arg : []);
      case "cite":
        return this.cite(obj(arg));
      case "tip": {
        const frag: Fragment = { id: this.newId(), type: "TIP", content: str(arg) || TIP_TEXT, style: "WARNING", hide_on_wip: true };
        m.fragments.push(frag);
        this.patch("response/fragments", "APPEND", [frag], "noOp");
        return;
      }
      case "usage": {
        const a = obj(arg);
        const tokens = num(a.tokens, this.ctx.estimateUsage());
        const quasi = str(a.quasi, "FINISHED");
        m.usage = tokens;
        m.quasiStatus = quasi;
        this.patch("response", "BATCH", [{ p: "accumulated_token_usage", v: tokens }, { p: "quasi_status", v: quasi }], "full");
        return;
      }
      case "status": {
        const s = str(arg, "FINISHED");
        m.status = s;
        this.patch("response/status", "SET", s, s === "FINISHED" ? "full" : "noOp");
        return;
      }
      case "content_filter": {
        const template: Fragment = { id: this.newId(), type: "TEMPLATE_RESPONSE", content: str(obj(arg).template) || FILTER_TEMPLATE };
        m.banRegenerate = true;
        m.status = "CONTENT_FILTER";
        m.quasiStatus = "CONTENT_FILTER";
        m.fragments = [template];
        this.patch(
          "response",
          "BATCH",
          [{ p: "ban_regenerate", v: true }, { p: "status", v: "CONTENT_FILTER" }, { p: "fragments", v: [template] }, { p: "quasi_status", v: "CONTENT_FILTER" }],
          "pathless",
        );
        return;
      }
      case "finish":
        this.event("finish", {});
        return;
      case "title":
        this.event("title", { content: str(arg, "Simulated chat") });
        return;
      case "close":
        this.event("close", { click_behavior: "none", auto_resume: false });
        return;
      case "keepalive": {
        const n = num(arg, 1);
        for (let i = 0; i < n; i++) this.pieces.push(KEEPALIVE);
        return;
      }
      case "sleep": {
        const a = typeof arg === "number" ? { ms: arg } : obj(arg);
        let left = num(a.ms, 0);
        const every = num(a.keepalive_ms, 0);
        // Long waits with keep-alives, as core does during search and tool phases.
        while (every > 0 && left > every) {
          this.pieces.push({ sleep: every }, KEEPALIVE);
          left -= every;
        }
        if (left > 0) this.pieces.push({ sleep: left });
        // The real clock passes the wait by itself; shifting it too would age every PoW challenge and token by
        // each scripted wait of every stream (1,000 stalled streams moved it by hours, issue 17).
        if (this.ctx.clock.mode === "virtual") this.ctx.clock.advance(num(a.ms, 0));
        return;
      }
      case "message": {
        const payload = obj(arg);
        if (typeof payload.p === "string") this.stickyPath = payload.p;
        if (typeof payload.o === "string") this.stickyOp = payload.o;
        this.data(payload);
        return;
      }
      case "event": {
        const a = obj(arg);
        this.event(str(a.name, "message"), a.data ?? {});
        return;
      }
      case "raw":
        this.bytes(str(arg));
        return;
      case "type_error": {
        const a = obj(arg);
        const payload: Record<string, unknown> = { type: "error", content: str(a.content, "error") };
        if (a.clear_response !== undefined) payload.clear_response = a.clear_response;
        if (a.finish_reason !== undefined) payload.finish_reason = a.finish_reason;
        this.data(payload);
        return;
      }
      case "error":
        this.data({ error: arg ?? "simulated error" });
        return;
      case "code_content_filter":
        this.data({ code: "content_filter" });
        return;
      case "eof":
        if (arg === "abrupt") this.pieces.push({ abrupt: true });
        this.ended = true;
        return;
    }
  }

  private snapshot(a: Record<string, any>): void {
    const m = this.m;
    if (this.ctx.round > 0) {
      // A continue snapshot: the whole message so far plus what the last round produced but never sent.
      const f = this.last();
      if (f && this.ctx.unseen) f.content = String(f.content ?? "") + this.ctx.unseen;
    } else {
      m.insertedAt = this.ctx.clock.tick();
      m.fragments = [];
      if (typeof a.think === "string") m.fragments.push({ id: this.newId(), type: "THINK", content: a.think, elapsed_secs: null, references: [], stage_id: 1 });
      else if (typeof a.answer === "string") m.fragments.push({ id: this.newId(), type: "RESPONSE", content: a.answer, references: [], stage_id: 1 });
    }
    if (a.auto_continue === true) m.autoContinue = true;
    m.status = "WIP";
    this.lastWasCite = false;
    this.data(snapshotPayload(m, this.ctx.shape));
  }

  private think(text: string, step: Step): void {
    const stage = num(step.stage, 0);
    const f = this.last();
    const tokens = this.tokensOf(text, step);
    if (f && (f.type === "THINK" || f.type === "THINKING") && (stage === 0 || stage === f.stage_id)) {
      this.contentTokens(tokens, step);
      return;
    }
    const frag: Fragment = { id: this.newId(), type: "THINK", content: tokens[0] ?? "", elapsed_secs: null, references: [], stage_id: stage || this.currentStage() };
    if (stage >= 2) {
      this.pendingBatch([frag]);
      this.contentTokens(tokens.slice(1), step);
    } else this.appendFragment(frag, tokens.slice(1), step);
  }

  private answer(text: string, step: Step): void {
    const f = this.last();
    const tokens = this.tokensOf(text, step);
    if (f && f.type === "RESPONSE") {
      this.contentTokens(tokens, step);
      return;
    }
    // A RESPONSE created in a continue round has stage_id 0 (§7.6).
    const stage = num(step.stage, this.ctx.round > 0 ? 0 : this.currentStage());
    const frag: Fragment = { id: this.newId(), type: "RESPONSE", content: tokens[0] ?? "", references: [], stage_id: stage };
    this.appendFragment(frag, tokens.slice(1), step);
  }

  private search(a: Record<string, any>): void {
    const m = this.m;
    const queries: string[] = Array.isArray(a.queries) ? a.queries.map((q: unknown) => String(q)) : ["search query"];
    const results: unknown[][] = Array.isArray(a.results) ? a.results : [];
    const stage = this.currentStage();
    const frags: Fragment[] = queries.map((q) => ({ id: this.newId(), type: "TOOL_SEARCH", status: "WIP", content: null, queries: [{ query: q }], results: [], stage_id: stage }));
    m.searchRan = true;
    this.pendingBatch(frags);
    m.searches.push(...frags.map((f) => f.id));
    const order: number[] = Array.isArray(a.order) ? a.order : queries.map((_, i) => i);
    const keepalive = num(a.keepalive, 0);
    order.forEach((qi, k) => {
      const frag = frags[qi];
      if (!frag) return;
      if (k > 0) for (let i = 0; i < keepalive; i++) this.pieces.push(KEEPALIVE);
      const list = (Array.isArray(results[qi]) ? results[qi]! : [{ url: `https://search${qi}.example/result`, title: queries[qi] }]).map((r, j) => searchResult(r, qi, j));
      frag.results = list;
      const at = this.negIndex(frag.id);
      this.patch(`response/fragments/${at}/results`, "SET", list, "full");
      frag.status = "FINISHED";
      this.patch(`response/fragments/${at}/status`, "SET", "FINISHED", "noOp");
    });
    for (let i = 0; i < keepalive; i++) this.pieces.push(KEEPALIVE);
  }

  private open(list: unknown[]): void {
    const m = this.m;
    const stage = this.currentStage();
    const frags: Fragment[] = [];
    for (const item of list) {
      const o = obj(item);
      const searchId = m.searches[num(o.search, 0)];
      const search = m.fragments.find((f) => f.id === searchId);
      if (!search) continue;
      const result = (search.results as unknown[])[num(o.result, 0)] ?? (search.results as unknown[])[0] ?? null;
      frags.push({ id: this.newId(), type: "TOOL_OPEN", status: "WIP", result, reference: { id: search.id, type: "TOOL_SEARCH" }, stage_id: stage });
    }
    if (!frags.length) return;
    this.pendingBatch(frags);
    m.opens.push(...frags.map((f) => f.id));
    frags.forEach((f, k) => {
      f.status = "FINISHED";
      this.patch(`response/fragments/${this.negIndex(f.id)}/status`, "SET", "FINISHED", k === 0 ? "full" : "noOp");
    });
  }

  private cite(a: Record<string, any>): void {
    const m = this.m;
    const f = this.last();
    if (!f || f.type !== "RESPONSE") return;
    const isOpen = typeof a.open === "number";
    const id = isOpen ? m.opens[a.open] : m.searches[num(a.search, 0)];
    if (id === undefined) return;
    const ref = { id, type: isOpen ? "TOOL_OPEN" : "TOOL_SEARCH" };
    const refs: unknown[] = Array.isArray(f.references) ? f.references : (f.references = []);
    const marker = `[reference:${refs.length}]`;
    const first = refs.length === 0;
    const afterCite = this.lastWasCite;
    f.content = String(f.content ?? "") + marker;
    refs.push(ref);
    const content = { p: "content", o: "APPEND", v: marker };
    // The first marker SETs the list; later ones inherit APPEND from the content sub-patch (§7.4 rule 5).
    const sub = first ? [content, { p: "references", o: "SET", v: [ref] }] : [content, { p: "references", v: [ref] }];
    this.patch("response/fragments/-1", "BATCH", sub, afterCite ? "pathless" : "full");
    this.lastWasCite = true;
  }
}
