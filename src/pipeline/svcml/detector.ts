// The streaming svcml detector (svcml-and-prompts.md §2): answer text in, visible text and incremental tool
// calls out. A resumable state machine over one buffer: scan positions only move forward, text is held back
// only while a tag prefix, an unconfirmed wrapper or a bare invoke is pending, and consumed prose is dropped
// from the buffer. A block that is complete in the buffer and written as the prompt teaches is read in one
// pass instead (canonical-block.ts) and applied through the same handlers.
import { BARE_INVOKE_HOLD_MAX_CHARS, CONFIRM_GAP_MAX_CHARS } from "./constants";
import { readCanonicalBlock, type CanonicalBlock } from "./canonical-block";
import { FenceTracker, NewlineCache } from "./fence";
import { scanTag, type Tag } from "./tag";
import { NEEDS_RAW_BODY, sourceText, typeCdataValue, typeParameterValue, typeParameterValueByProbes } from "./typing";
import { CDATA_OPENER_LENGTH, matchCdataOpener, matchCommentOpener } from "./tag";
import { hasNonSpace, isSpaceCode, skipSpaces } from "./spaces";
import { openBody, scanCdataValue, type CdataScan } from "./param-body";
import { ScanBuffer } from "./scan-buffer";
import { paramReading, type SchemaLookup } from "./coerce";
import { StringStream } from "./string-stream";
import { CallBuilder, newInvoke, type Invoke } from "./call-builder";
import { newCallId } from "./call-id";
import type { TurnEvent } from "../types";

/** Exactly the pipeline's TurnEvent variants that the detector produces (§2.2). */
export type DetectorEvent = Extract<TurnEvent, { type: "text" | "call_start" | "call_args" | "call_end" }>;

export interface DetectorOptions {
  /** The declared tools, for string coercion (§1.11): a lookup from tool name to schema (see schemaLookup). */
  tools?: SchemaLookup;
  /** tool_choice none: blocks are removed, nothing is announced (§2.1). */
  suppress?: boolean;
  newId?: () => string;
  /**
   * Inside a block, consumed text is dropped from the buffer once this many characters of it have piled
   * up (default 512); text that may still be needed moves to a side list. Tests set 0 to exercise it.
   */
  dropConsumedAfter?: number;
  /**
   * Read a canonical block that is complete in the buffer in one pass (default true). Tests turn it off to
   * check that both readings give the same events.
   */
  wholeBlocks?: boolean;
}

type State =
  | { s: "text" }
  | { s: "comment"; term: string }
  | { s: "confirm"; tagStart: number; tagEnd: number }
  | { s: "block" }
  | { s: "invoke" }
  | { s: "json"; from: number }
  | { s: "param"; name: string; bodyStart: number; depth: number; cdata: null | CdataScan; stream: StringStream | null };

type ParamState = Extract<State, { s: "param" }>;

/** What nextTag returns at the end of the input when no further tag exists. */
const END_OF_INPUT = Symbol("end of input");
/** Returned by pushes that produce nothing (most of them inside a block): not allocated per push. */
const NO_EVENTS: DetectorEvent[] = Object.freeze([]) as unknown as DetectorEvent[];

export class SvcmlDetector {
  /** The scan buffer's text (the detector reads it constantly; kept in step with `sb`). */
  private get buf(): string {
    return this.sb.text;
  }
  /** Scan position in buf. */
  private pos = 0;
  /** Everything before this index has been released or consumed. */
  private released = 0;
  private state: State = { s: "text" };
  /** One newline search cache for every fence tracker over this buffer. */
  private readonly lines = new NewlineCache();
  private fence = new FenceTracker(this.lines);
  private events: DetectorEvent[] = [];
  private invoke: Invoke | null = null;
  private depth = 0;
  private blockStart = -1;
  /** Inside a confirmed block (blockStart may be negative once consumed text was dropped). */
  private inBlock = false;
  private blockAnnounced = false;
  /** A held bare-invoke region (§1.8): start index and finished calls waiting for the closing wrapper. */
  private bareStart = -1;
  private bareCalls: Invoke[] = [];
  private unfinishedCall = false;
  private final = false;
  private resumeAt = 0;

  /** Values → members → call events (call-builder.ts); the detector only finds where values are. */
  private readonly calls: CallBuilder;

  constructor(private readonly opts: DetectorOptions = {}) {
    this.dropAfter = opts.dropConsumedAfter ?? 512;
    this.calls = new CallBuilder({
      tools: opts.tools,
      newId: opts.newId ?? newCallId,
      emit: (ev) => void this.events.push(ev),
      onAnnounce: () => (this.blockAnnounced = true),
    });
  }

  /**
   * Characters in the scan buffer now (for tests and diagnostics): it must stay bounded however long the
   * input, or every push would copy a growing buffer.
   */
  get bufferedChars(): number {
    return this.buf.length;
  }

  /** Whether an announced call ended unfinished (finish reason `length`, §2.6). */
  get hasUnfinished(): boolean {
    return this.unfinishedCall;
  }

  push(chunk: string): DetectorEvent[] {
    this.sb.append(chunk);
    this.run();
    return this.take();
  }

  flush(): DetectorEvent[] {
    // The end-of-input rules look back over whole values: put dropped-but-kept text back first (once).
    this.restoreKept();
    this.final = true;
    this.run();
    this.finishAtEnd();
    return this.take();
  }

  private take(): DetectorEvent[] {
    const out = this.events;
    if (out.length === 0) return NO_EVENTS;
    this.events = [];
    return out;
  }

  // ---------------------------------------------------------------- output helpers

  private emitText(from: number, to: number, alreadyFedFirst = false): void {
    if (to <= from) return;
    const text = this.buf.slice(from, to);
    this.fence.feedText(alreadyFedFirst ? text.slice(1) : text);
    const last = this.events[this.events.length - 1];
    if (last?.type === "text") last.text += text;
    else this.events.push({ type: "text", text });
  }



  // ---------------------------------------------------------------- main loop

  private run(): void {
    for (let guard = 0; guard < 1_000_000; guard++) {
      const progressed = this.step();
      // A step inside a held bare invoke may read far past the hold limit in one go (a long value).
      if (this.bareOverLimit(this.pos) && this.state.s !== "text") this.releaseBareAtLimit();
      else if (!progressed) break;
    }
    this.dropConsumed();
  }

  // ---------------------------------------------------------------- consumed text
  //
  // After each run the text before the first position still needed is dropped (scan-buffer.ts). Outside blocks
  // that is everything released (less a held bare invoke, or a wrapper waiting for its invoke), at once. Inside
  // a block the scan never looks back either, but a later slice may (the open parameter's or JSON body's raw
  // text, the block text while no call is announced): that part is kept, once enough has piled up to be worth it.

  private readonly sb = new ScanBuffer();
  private readonly dropAfter: number;

  private dropConsumed(): void {
    const st = this.state;
    let floor: number;
    let keepFrom = Infinity;
    if (st.s === "text" || st.s === "comment" || st.s === "confirm") {
      floor = Math.min(this.released, this.pos);
      if (st.s === "confirm") floor = Math.min(floor, st.tagStart);
      if (this.bareStart >= 0) floor = Math.min(floor, this.bareStart);
    } else {
      // A held bare invoke keeps its region whole (the hold limit bounds it); after flush began, the
      // end-of-input rules work on the restored buffer.
      if (this.bareStart >= 0 || this.final) return;
      floor = this.pos;
      if (st.s === "param" && st.cdata?.isCdata && !st.cdata.ended) floor = Math.min(floor, st.cdata.scan, st.cdata.fenceTracked);
      if (st.s === "param" && st.stream) floor = Math.min(floor, st.stream.emitted);
      if (floor < this.dropAfter) return;
      if (!this.blockAnnounced) keepFrom = this.blockStart;
      if (st.s === "param") keepFrom = Math.min(keepFrom, st.bodyStart);
      if (st.s === "json") keepFrom = Math.min(keepFrom, st.from);
    }
    if (floor <= 0) return;
    this.movePositions(this.sb.drop(floor, keepFrom));
  }

  /** Puts the kept text back in front of the buffer, so that every position is non-negative again. */
  private restoreKept(): void {
    const delta = this.sb.restore();
    if (delta) this.movePositions(delta);
  }

  /** Moves every position into the buffer by delta (sentinels stay as they are). */
  private movePositions(delta: number): void {
    this.pos += delta;
    this.released += delta;
    this.resumeAt += delta;
    if (this.bareStart >= 0) this.bareStart += delta;
    if (this.pendingBareEnd >= 0) this.pendingBareEnd += delta;
    if (this.inBlock) this.blockStart += delta;
    if (this.skip) this.skip.at += delta;
    const st = this.state;
    if (st.s === "confirm") {
      st.tagStart += delta;
      st.tagEnd += delta;
    }
    if (st.s === "json") st.from += delta;
    if (st.s === "param") {
      st.bodyStart += delta;
      const c = st.cdata;
      if (c?.isCdata) {
        c.valueStart += delta;
        c.scan += delta;
        c.fenceTracked += delta;
        c.skippedEnd += delta;
        c.valueEnd += delta;
      }
      if (st.stream) st.stream.emitted += delta;
    }
  }

  /** buf[from, to) where from may lie in the kept text (negative). */
  private slice(from: number, to: number): string {
    return this.sb.slice(from, to);
  }

  private step(): boolean {
    switch (this.state.s) {
      case "text":
        return this.stepText();
      case "comment":
        return this.stepComment(this.state.term);
      case "confirm":
        return this.stepConfirm(this.state);
      case "block":
        return this.stepBlock();
      case "invoke":
        return this.stepInvoke();
      case "json":
        return this.stepJson(this.state);
      case "param":
        return this.stepParam(this.state);
    }
  }

  private stepText(): boolean {
    const s = this.buf;
    if (this.bareStart >= 0) {
      // A finished bare invoke waits for what follows it: a closing wrapper confirms it.
      if (this.pendingBareEnd < 0) return false;
      // pos remembers how far the whitespace after it was read, so that none of it is read twice.
      const j = skipSpaces(s, Math.max(this.pos, this.pendingBareEnd));
      if (j >= s.length) {
        this.pos = j;
        // Hold-back stays bounded even when only whitespace follows.
        return this.bareOverLimit(j) ? this.releaseBareAtLimit() : false;
      }
      return this.resolveBareAt(j, this.pendingBareEnd);
    }
    let i = this.pos;
    // Release plain text up to the next `<` that could matter; the fence tracker sees every character.
    for (;;) {
      const lt = s.indexOf("<", i);
      const end = lt < 0 ? s.length : lt;
      this.fence.feedRange(s, i, end);
      i = end;
      if (lt < 0 || !this.fence.wouldBeInFence("<")) break;
      this.fence.feed("<");
      i++;
    }
    if (i > this.released) {
      const text = s.slice(this.released, i);
      const last = this.events[this.events.length - 1];
      if (last?.type === "text") last.text += text;
      else this.events.push({ type: "text", text });
      this.released = i;
    }
    this.pos = i;
    if (i >= s.length) return false;
    // s[i] === "<" outside a fence.
    if (s.charCodeAt(i + 1) === 33) {
      // `<!`: a comment or CDATA opener in prose makes text up to its terminator plain text (§1.3).
      const comment = matchCommentOpener(s, i);
      const cdata = matchCdataOpener(s, i);
      if (comment === 1 || cdata === 1) {
        const openLen = comment === 1 ? 4 : CDATA_OPENER_LENGTH;
        this.emitText(i, i + openLen);
        this.released = this.pos = i + openLen;
        this.state = { s: "comment", term: comment === 1 ? "-->" : "]]>" };
        return true;
      }
      if ((comment === 0 || cdata === 0) && !this.final) return false;
    } else if (i + 1 >= s.length && !this.final) return false;
    const scan = scanTag(s, i, this.final);
    if (scan.type === "partial") return false;
    if (scan.type === "none") {
      this.emitText(i, scan.resume);
      this.released = this.pos = scan.resume;
      return true;
    }
    const tag = scan;
    if (!tag.closing && tag.kind === "tool_calls" && !tag.selfClosing) {
      this.fence.feed("<");
      const block = this.opts.wholeBlocks === false ? null : readCanonicalBlock(s, tag.end, this.lines);
      if (block !== null) {
        this.applyBlock(tag.start, block);
        return true;
      }
      this.state = { s: "confirm", tagStart: tag.start, tagEnd: tag.end };
      this.pos = tag.end;
      return true;
    }
    if (!tag.closing && tag.kind === "tool_calls" && tag.selfClosing) {
      // A self-closing wrapper is an empty block: removed.
      this.fence.markContent();
      this.released = this.pos = tag.end;
      return true;
    }
    if (!tag.closing && tag.kind === "invoke" && tag.name) {
      // A bare invoke (§1.8): held until a closing wrapper confirms it.
      this.fence.feed("<");
      this.bareStart = tag.start;
      this.startInvoke(tag, true);
      return true;
    }
    this.emitText(i, tag.end);
    this.released = this.pos = tag.end;
    return true;
  }

  private stepComment(term: string): boolean {
    // Comments and CDATA in prose are text; nothing inside them is held back.
    const s = this.buf;
    const at = s.indexOf(term, this.pos);
    if (at < 0) {
      const keep = Math.max(this.pos, s.length - (term.length - 1));
      this.emitText(this.released, keep);
      this.released = this.pos = keep;
      if (this.final) {
        this.emitText(this.released, s.length);
        this.released = this.pos = s.length;
      }
      return false;
    }
    this.emitText(this.released, at + term.length);
    this.released = this.pos = at + term.length;
    this.state = { s: "text" };
    return true;
  }

  private stepConfirm(st: { tagStart: number; tagEnd: number }): boolean {
    const s = this.buf;
    const j = skipSpaces(s, st.tagEnd);
    const mention = () => {
      // A wrapper mentioned in prose: it and the whitespace after it are text (§1.4).
      this.emitText(st.tagStart, j, true);
      this.released = this.pos = j;
      this.state = { s: "text" };
      return true;
    };
    if (j - st.tagEnd > CONFIRM_GAP_MAX_CHARS) return mention();
    if (j >= s.length) {
      if (this.final) return mention();
      return false;
    }
    if (s[j] !== "<") return mention();
    const scan = scanTag(s, j, this.final);
    if (scan.type === "partial") return false;
    if (scan.type === "none") return mention();
    const t = scan;
    if (t.kind === "invoke" && !t.closing) {
      this.blockStart = st.tagStart;
      this.inBlock = true;
      this.blockAnnounced = false;
      this.depth = 1;
      this.state = { s: "block" };
      // The confirming invoke tag was just scanned: start it here instead of scanning it again.
      this.startInvoke(t, false);
      return true;
    }
    if (t.kind === "tool_calls" && t.closing) {
      // An empty block: removed from the visible text.
      this.fence.markContent();
      this.released = this.pos = t.end;
      this.state = { s: "text" };
      return true;
    }
    return mention();
  }

  // ---------------------------------------------------------------- blocks and invokes

  /** Finds the next tool tag at or after pos, skipping comments and CDATA; null when more input is needed. */
  private nextTag(from: number): Tag | typeof END_OF_INPUT | null {
    const s = this.buf;
    let i = from;
    // Where the next call may resume when more input is needed: nothing before it is looked at again.
    this.resumeAt = from;
    const skip = this.skip;
    this.skip = null;
    if (skip && skip.state === this.state && skip.at === from) {
      // Still inside a comment or CDATA section: only the new text can hold its terminator.
      const end = s.indexOf(skip.term, from);
      if (end < 0) return this.awaitTerminator(skip.term, from);
      i = end + skip.term.length;
    }
    for (;;) {
      const lt = s.indexOf("<", i);
      if (lt < 0) {
        this.resumeAt = s.length;
        return this.final ? END_OF_INPUT : null;
      }
      this.resumeAt = lt;
      if (lt + 1 >= s.length && !this.final) return null;
      if (s.charCodeAt(lt + 1) === 33) {
        // Comments and CDATA sections are skipped when looking for tags.
        const comment = matchCommentOpener(s, lt);
        const cdata = matchCdataOpener(s, lt);
        if (comment === 1 || cdata === 1) {
          const term = comment === 1 ? "-->" : "]]>";
          const end = s.indexOf(term, lt + 4);
          if (end < 0) return this.awaitTerminator(term, lt + 4);
          i = end + term.length;
          continue;
        }
        if ((comment === 0 || cdata === 0) && !this.final) return null;
      }
      const scan = scanTag(s, lt, this.final);
      if (scan.type === "partial") return null;
      if (scan.type === "none") {
        i = scan.resume > lt ? scan.resume : lt + 1;
        continue;
      }
      return scan;
    }
  }

  /** The next tool tag from pos, or null when there is none yet (pos then moves to where the next look resumes). */
  private tagFromPos(): Tag | null {
    const r = this.nextTag(this.pos);
    if (r === null) this.pos = this.resumeAt;
    else if (r === END_OF_INPUT) this.pos = this.buf.length;
    else return r;
    return null;
  }

  /** A comment or CDATA section inside a block runs past the input: resume inside it, not at its start. */
  private skip: { term: string; at: number; state: State } | null = null;

  private awaitTerminator(term: string, searchedFrom: number): typeof END_OF_INPUT | null {
    const s = this.buf;
    if (this.final) return END_OF_INPUT;
    const at = Math.max(searchedFrom, s.length - (term.length - 1));
    this.skip = { term, at, state: this.state };
    this.resumeAt = at;
    return null;
  }

  private stepBlock(): boolean {
    const t = this.tagFromPos();
    if (!t) return false;
    this.pos = t.end;
    if (t.kind === "tool_calls") {
      if (t.closing) this.depth--;
      else if (!t.selfClosing) this.depth++;
      if (this.depth <= 0) this.endBlock(t.end);
      return true;
    }
    if (t.kind === "invoke" && !t.closing) {
      this.startInvoke(t, false);
      return true;
    }
    return true;
  }

  /**
   * A whole canonical block read in one pass (canonical-block.ts): the handlers the state machine would call
   * for it, in the order it would call them, so the events are the same as tag-by-tag reading gives.
   */
  private applyBlock(start: number, block: CanonicalBlock): void {
    const s = this.buf;
    this.blockStart = start;
    this.inBlock = true;
    this.blockAnnounced = false;
    this.depth = 1;
    for (const inv of block.invokes) {
      this.startInvoke(inv.open, false);
      for (const p of inv.params) {
        this.sealIfOther(p.name);
        if (p.valueStart >= 0) this.closeParam(p.name, "", s.slice(p.valueStart, p.valueEnd), p.bodyStart, p.bodyEnd);
        else this.closeParam(p.name, s.slice(p.bodyStart, p.bodyEnd));
      }
      this.endInvoke(inv.end);
    }
    this.endBlock(block.end);
  }

  private endBlock(end: number): void {
    this.fence.markContent();
    this.released = this.pos = end;
    this.blockStart = -1;
    this.inBlock = false;
    // What was kept for slices into the block is never asked for again.
    this.sb.forgetKept();
    this.state = { s: "text" };
  }

  private startInvoke(t: Tag, bare: boolean): void {
    this.invoke = newInvoke(t.name, bare);
    this.pos = t.end;
    if (t.selfClosing) {
      this.endInvoke(t.end);
      return;
    }
    this.state = { s: "invoke" };
  }

  private stepInvoke(): boolean {
    const inv = this.invoke!;
    const s = this.buf;
    if (!inv.bodyStarted) {
      const j = skipSpaces(s, this.pos);
      if (j >= s.length && !this.final) {
        this.pos = j;
        return false;
      }
      inv.bodyStarted = true;
      if (s[j] === "{") {
        inv.jsonBody = true;
        this.state = { s: "json", from: j };
        this.pos = j;
        return true;
      }
      // A bare invoke is only held when its body starts like a call (§1.8).
      if (inv.bare && j < s.length && s[j] !== "<" && s[j] !== "[") return this.releaseBare();
    }
    if (inv.bare && this.bareOverLimit(this.pos)) return this.releaseBareAtLimit();
    const from = this.pos;
    const t = this.tagFromPos();
    // Text between an invoke's tags (other than whitespace) makes a parameterless invoke a rejected one.
    if (!inv.nonBlank && hasNonSpace(s, from, t ? t.start : this.pos)) inv.nonBlank = true;
    if (!t) return false;
    if (t.kind === "parameter" && !t.closing) {
      this.sealIfOther(t.name.trim());
      if (t.selfClosing) {
        this.pos = t.end;
        if (t.name.trim()) this.closeParam(t.name.trim(), "");
        return true;
      }
      this.state = { s: "param", name: t.name.trim(), bodyStart: t.end, depth: 1, cdata: null, stream: null };
      this.pos = t.end;
      return true;
    }
    if (t.kind === "invoke" && t.closing) {
      this.pos = t.end;
      this.endInvoke(t.end);
      return true;
    }
    if (t.kind === "tool_calls" && t.closing) {
      // Implicit close of the invoke; the wrapper close is handled by the block.
      this.endInvoke(t.start);
      this.pos = t.start;
      return true;
    }
    if (t.kind === "invoke" && !t.closing) {
      this.endInvoke(t.start);
      this.pos = t.start;
      return true;
    }
    // Stray tool tags inside an invoke are discarded.
    this.pos = t.end;
    return true;
  }

  private stepJson(st: { from: number }): boolean {
    const t = this.tagFromPos();
    if (!t) return false;
    const endsBody = (t.kind === "invoke") || (t.kind === "tool_calls" && t.closing);
    if (!endsBody) {
      this.pos = t.end;
      return true;
    }
    const text = this.slice(st.from, t.start).trim();
    const inv = this.invoke!;
    try {
      const obj = JSON.parse(text);
      if (obj && typeof obj === "object" && !Array.isArray(obj)) {
        const args =
          obj.input && typeof obj.input === "object" && !Array.isArray(obj.input)
            ? obj.input
            : obj.parameters && typeof obj.parameters === "object" && !Array.isArray(obj.parameters)
              ? obj.parameters
              : obj;
        for (const [k, v] of Object.entries(args)) inv.members.push({ name: k, value: v, repeated: null, sourceText: false });
      } else inv.rejected = true;
    } catch {
      inv.rejected = true;
    }
    if (t.kind === "invoke" && t.closing) {
      this.pos = t.end;
      this.endInvoke(t.end);
    } else {
      this.pos = t.start;
      this.endInvoke(t.start);
    }
    return true;
  }

  private stepParam(st: ParamState): boolean {
    const s = this.buf;
    if (st.cdata === null) {
      // pos (bodyStart on entry) remembers how far the leading whitespace was read.
      const j = skipSpaces(s, Math.max(this.pos, st.bodyStart));
      if (j >= s.length && !this.final) {
        this.pos = j;
        return false;
      }
      const body = openBody(s, j, this.final, this.lines);
      if (!body) return false;
      st.cdata = body;
      this.pos = j;
      if (body.isCdata) this.maybeStream(st, body);
    }
    const c = st.cdata;
    if (!c.ended) {
      // Inside a CDATA value (param-body.ts).
      const r = scanCdataValue(s, c, this.final);
      if (st.stream) this.streamAfterScan(st.stream, c, r);
      if (r === "end of input") return this.cdataAtEnd(st);
      if (r === "read all") {
        this.pos = s.length;
        return false;
      }
      if (r === "wait") return false;
      this.pos = c.valueEnd + 3;
    }
    // After the value (or in a plain body): find the closing parameter tag.
    const t = this.tagFromPos();
    if (!t) return false;
    if (t.kind === "parameter") {
      if (!t.closing) {
        if (!t.selfClosing && !c.isCdata) st.depth++;
        this.pos = t.end;
        return true;
      }
      st.depth--;
      if (st.depth > 0) {
        this.pos = t.end;
        return true;
      }
      this.pos = t.end;
      this.state = { s: "invoke" };
      if (st.name) {
        // One CDATA section with only whitespace after it: its text is the value, already located.
        const single = c.isCdata && !c.rejoined && !c.skipped && c.valueEnd >= 0 && !hasNonSpace(s, c.valueEnd + 3, t.start);
        if (single) this.closeParam(st.name, "", this.slice(c.valueStart, c.valueEnd), st.bodyStart, t.start);
        else this.closeParam(st.name, this.slice(st.bodyStart, t.start));
      }
      return true;
    }
    if (t.kind === "invoke" || (t.kind === "tool_calls" && t.closing)) {
      // The invoke ends early: the parameter is kept only when its CDATA value had ended (§1.5). A dropped one
      // is body text that was not a kept parameter: with none kept, the invoke is rejected, never a `{}` call.
      if (c.isCdata && c.ended && st.name) this.closeParam(st.name, this.slice(st.bodyStart, t.start));
      else this.invoke!.nonBlank = true;
      this.state = { s: "invoke" };
      this.pos = t.start;
      return true;
    }
    this.pos = t.end;
    return true;
  }

  /** End of input inside a CDATA value (§1.6): the fence fallback, else the narrow repair. */
  private cdataAtEnd(st: ParamState): boolean {
    const c = st.cdata!;
    const s = this.buf;
    if (c.skipped) {
      c.ended = true;
      this.pos = c.skippedEnd + 3;
      c.skipped = false;
      return true;
    }
    // Narrow repair: the value runs to the first closing tool tag inside it, which then acts as a tag.
    let i = c.valueStart;
    for (;;) {
      const lt = s.indexOf("</", i);
      const lt2 = s.indexOf("<", i);
      const at = lt2 < 0 ? -1 : lt2;
      if (at < 0 && lt < 0) break;
      const k = at;
      const scan = scanTag(s, k, true);
      if (scan.type === "tag" && scan.closing) {
        const body = s.slice(st.bodyStart, k);
        const t = scan;
        this.state = { s: "invoke" };
        if (t.kind === "parameter") {
          this.pos = t.end;
          if (st.name) this.closeParam(st.name, `${body.trimEnd()}]]>`);
        } else {
          if (st.name) this.closeParam(st.name, `${body.trimEnd()}]]>`);
          this.pos = t.start;
        }
        return true;
      }
      i = k + 1;
    }
    // No closing tag: the parameter is still open at the end of input.
    this.pos = s.length;
    return false;
  }

  // ---------------------------------------------------------------- members and calls

  private sealIfOther(nextName: string): void {
    this.calls.sealIfOther(this.invoke!, nextName);
  }

  /**
   * A parameter closed: its value typed (§1.7) and handed to the call builder. For a value the typing needs the
   * raw body of, it is read from bodyStart/bodyEnd (rawBody is then unused).
   */
  private closeParam(name: string, rawBody: string, cdata?: string, bodyStart = 0, bodyEnd = 0): void {
    const reading = paramReading(this.opts.tools, this.invoke!.name, name);
    if (reading !== "typed") {
      // A string parameter: the text the model wrote, exactly (§1.11).
      const source = cdata ?? sourceText(rawBody || this.slice(bodyStart, bodyEnd), reading === "source or null");
      const stream = this.valueStream;
      this.valueStream = null;
      if (stream?.started) this.calls.endStream(this.invoke!, source ?? "", stream.chars);
      else this.calls.addSourceText(this.invoke!, name, source, !this.opts.suppress);
      return;
    }
    let value = cdata === undefined ? typeParameterValue(name, rawBody) : typeCdataValue(name, cdata);
    if (value === NEEDS_RAW_BODY) value = typeParameterValueByProbes(name, this.slice(bodyStart, bodyEnd));
    this.calls.addValue(this.invoke!, name, value, !this.opts.suppress);
  }

  /**
   * A CDATA value of a string parameter that starts a new member of a call that can be announced streams while it
   * arrives (§2.5 condition S; string-stream.ts).
   */
  private maybeStream(st: ParamState, c: CdataScan): void {
    const inv = this.invoke!;
    if (this.opts.suppress || inv.bare || !inv.name || !st.name || !this.calls.isNewMember(inv, st.name)) return;
    if (paramReading(this.opts.tools, inv.name, st.name) === "typed") return;
    const stream = new StringStream(c.valueStart, {
      start: () => this.calls.startStream(inv, st.name),
      piece: (text) => this.calls.streamPiece(inv, text),
    });
    st.stream = this.valueStream = stream;
    c.onJoin = (at) => {
      if (!c.skipped) return stream.advance(this.buf, at, at + 12);
      stream.advance(this.buf, c.skippedEnd);
      stream.stop();
    };
  }

  /** The string value streaming now, if any (the parameter's state holds it too, for moving its position). */
  private valueStream: StringStream | null = null;

  /** After the CDATA scan: what it has read is content up to the possible end it holds back (param-body.ts). */
  private streamAfterScan(stream: StringStream, c: CdataScan, r: ReturnType<typeof scanCdataValue>): void {
    const s = this.buf;
    if (c.skipped) {
      // A `]]>` passed over inside a fence may still end the value (§1.6): content is certain only before it.
      stream.advance(s, c.skippedEnd);
      stream.stop();
      return;
    }
    if (r === "ended") stream.advance(s, c.valueEnd);
    else if (r === "read all") stream.advance(s, Math.max(stream.emitted, s.length - 2));
    else if (r === "wait") stream.advance(s, s.indexOf("]]>", c.scan));
    else stream.stop();
  }

  private seal(): void {
    this.calls.seal(this.invoke!);
  }

  private endInvoke(end: number): void {
    const inv = this.invoke!;
    this.invoke = null;
    const keep = this.calls.keeps(inv);
    if (inv.bare) {
      if (keep) this.bareCalls.push(inv);
      this.afterBareInvoke(end);
      return;
    }
    this.state = { s: "block" };
    if (this.opts.suppress) return;
    if (!keep) {
      if (inv.announced) this.calls.finishAnnounced(inv);
      return;
    }
    this.calls.finishKept(inv);
  }

  private emitWholeCall(inv: Invoke): void {
    this.calls.emitWhole(inv);
  }

  // ---------------------------------------------------------------- bare invokes (§1.8)

  private afterBareInvoke(end: number): void {
    this.pos = end;
    this.state = { s: "text" };
    const s = this.buf;
    const j = skipSpaces(s, end);
    if (j >= s.length) {
      if (this.final) this.releaseBare();
      else this.pendingBareEnd = end;
      return;
    }
    this.resolveBareAt(j, end);
  }

  private pendingBareEnd = -1;

  private resolveBareAt(j: number, end: number): boolean {
    const s = this.buf;
    // The held region is measured up to what decides it, however the text was chunked (§1.8).
    if (this.bareOverLimit(j)) return this.releaseBareAtLimit();
    if (s[j] !== "<") return this.releaseBare(end);
    const scan = scanTag(s, j, this.final);
    if (scan.type === "partial") {
      this.pendingBareEnd = end;
      return false;
    }
    if (scan.type === "tag" && scan.kind === "tool_calls" && scan.closing) {
      // Confirmed: every held bare invoke is a call; the region and the closing wrapper are removed.
      const calls = this.bareCalls;
      this.bareCalls = [];
      this.bareStart = -1;
      this.pendingBareEnd = -1;
      if (!this.opts.suppress) for (const inv of calls) this.emitWholeCall(inv);
      this.fence.markContent();
      this.released = this.pos = scan.end;
      this.state = { s: "text" };
      return true;
    }
    if (scan.type === "tag" && scan.kind === "invoke" && !scan.closing && scan.name) {
      this.pendingBareEnd = -1;
      this.startInvoke(scan, true);
      return true;
    }
    return this.releaseBare(end);
  }

  // The hold limit (§1.8) releases the region at one fixed point, bareStart + limit + 1, as soon as anything
  // past it has been read, and before acting on it: so the text that comes out does not depend on where the
  // pushes happened to end, and a bare invoke never holds more than the limit.
  private bareOverLimit(at: number): boolean {
    return this.bareStart >= 0 && at - this.bareStart > BARE_INVOKE_HOLD_MAX_CHARS;
  }

  private releaseBareAtLimit(): boolean {
    return this.releaseBare(this.bareStart + BARE_INVOKE_HOLD_MAX_CHARS + 1);
  }

  /** The held region becomes visible text again; scanning resumes after it. */
  private releaseBare(upTo?: number): boolean {
    const start = this.bareStart;
    const end = upTo ?? (this.pendingBareEnd >= 0 ? this.pendingBareEnd : this.pos);
    this.bareStart = -1;
    this.bareCalls = [];
    this.pendingBareEnd = -1;
    this.invoke = null;
    this.emitText(start, end, true);
    this.released = this.pos = end;
    this.state = { s: "text" };
    return true;
  }

  // ---------------------------------------------------------------- end of input (§2.6)

  private finishAtEnd(): void {
    this.valueStream = null;
    if (this.bareStart >= 0) {
      if (this.pendingBareEnd >= 0) {
        const j = skipSpaces(this.buf, this.pendingBareEnd);
        if (j < this.buf.length) {
          this.resolveBareAt(j, this.pendingBareEnd);
          this.run();
        }
      }
      if (this.bareStart >= 0) this.releaseBare(this.buf.length);
      this.run();
    }
    if (this.state.s === "confirm") this.run();
    if (this.invoke && (this.state.s === "invoke" || this.state.s === "param" || this.state.s === "json")) {
      const inv = this.invoke;
      if (inv.announced) {
        // Unfinished: sealed members were emitted; no closing brace and no call_end.
        this.seal();
        this.unfinishedCall = true;
        this.invoke = null;
      }
    }
    if (this.inBlock) {
      if (!this.blockAnnounced) {
        this.emitText(this.blockStart, this.buf.length, true);
      }
      this.blockStart = -1;
      this.inBlock = false;
      this.released = this.pos = this.buf.length;
      this.state = { s: "text" };
      this.invoke = null;
    }
    if (this.state.s === "text" && this.released < this.buf.length) {
      this.emitText(this.released, this.buf.length);
      this.released = this.pos = this.buf.length;
    }
  }
}

/** The detector as a stream stage: answer text in, detector events out (§2.2). */
export function svcmlDetectStream(opts: DetectorOptions = {}): TransformStream<string, DetectorEvent> & { detector: SvcmlDetector } {
  const detector = new SvcmlDetector(opts);
  const stream = new TransformStream<string, DetectorEvent>({
    transform(chunk, controller) {
      for (const e of detector.push(chunk)) controller.enqueue(e);
    },
    flush(controller) {
      for (const e of detector.flush()) controller.enqueue(e);
    },
  });
  // Exposed so that the caller can read hasUnfinished (finish reason `length`) once the stream has ended.
  return Object.assign(stream, { detector });
}
