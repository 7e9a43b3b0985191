// The svcml detector's state and what every part of it shares (svcml-and-prompts.md §2): the scan buffer and the
// positions into it, the events going out, dropping consumed text, and finding the next tool tag. The readers
// that move the state machine (prose, blocks and invokes, parameter values, bare invokes) extend this class one
// concern a file; detector.ts is the public face. Methods one part calls on a later one are declared here.
import { FenceTracker, NewlineCache } from "./fence";
import { scanTag, matchCdataOpener, matchCommentOpener, type Tag } from "./tag";
import type { CdataScan } from "./param-body";
import { ScanBuffer, type Cursor } from "./scan-buffer";
import { BareHold } from "./bare-hold";
import type { SchemaLookup } from "./coerce";
import type { StringStream } from "./string-stream";
import { CallBuilder, type Invoke } from "./call-builder";
import { newCallId } from "./call-id";
import type { CanonicalBlock } from "./canonical-block";
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

export type State =
  | { s: "text" }
  | { s: "comment"; term: string }
  | { s: "confirm"; tagStart: Cursor; tagEnd: Cursor }
  | { s: "block" }
  | { s: "invoke" }
  | { s: "json"; from: Cursor }
  | { s: "param"; name: string; bodyStart: Cursor; depth: number; cdata: null | CdataScan; stream: StringStream | null };

export type ParamState = Extract<State, { s: "param" }>;

/** What nextTag returns at the end of the input when no further tag exists. */
const END_OF_INPUT = Symbol("end of input");
/** Returned by pushes that produce nothing (most of them inside a block): not allocated per push. */
const NO_EVENTS: DetectorEvent[] = Object.freeze([]) as unknown as DetectorEvent[];

export abstract class DetectorBase {
  // After each run the text before the first position still needed is dropped (scan-buffer.ts). Outside blocks
  // that is everything released (less a held bare invoke, or a wrapper waiting for its invoke), at once. Inside
  // a block the scan never looks back either, but a later slice may (the open parameter's or JSON body's raw
  // text, the block text while no call is announced): that part is kept, once enough has piled up to be worth it.
  // Every position that outlives a run is a cursor of this buffer, so dropping text moves none of them by hand.
  protected readonly sb = new ScanBuffer();
  protected readonly dropAfter: number;

  /** The scan buffer's text (the detector reads it constantly; kept in step with `sb`). */
  protected get buf(): string {
    return this.sb.text;
  }
  /** Scan position in buf. */
  protected readonly pos = this.sb.cursor(0);
  /** Everything before this index has been released or consumed. */
  protected readonly released = this.sb.cursor(0);
  protected state: State = { s: "text" };
  /** One newline search cache for every fence tracker over this buffer. */
  protected readonly lines = new NewlineCache();
  protected fence = new FenceTracker(this.lines);
  protected events: DetectorEvent[] = [];
  protected invoke: Invoke | null = null;
  protected depth = 0;
  /** Where the open block's wrapper starts (cleared outside a block). */
  protected readonly blockStart = this.sb.cursor();
  /** Inside a confirmed block (blockStart may be negative once consumed text was dropped). */
  protected inBlock = false;
  protected blockAnnounced = false;
  /** A held bare-invoke region (§1.8, bare-hold.ts). */
  protected readonly bare = new BareHold(this.sb);
  protected unfinishedCall = false;
  protected final = false;
  /** Where nextTag's caller resumes when more input is needed: read right after the call, never across a drop. */
  protected resumeAt = 0;

  /** Values → members → call events (call-builder.ts); the detector only finds where values are. */
  protected readonly calls: CallBuilder;

  constructor(protected readonly opts: DetectorOptions = {}) {
    this.dropAfter = opts.dropConsumedAfter ?? 512;
    this.calls = new CallBuilder({
      tools: opts.tools,
      newId: opts.newId ?? newCallId,
      emit: (ev) => void this.events.push(ev),
      onAnnounce: () => (this.blockAnnounced = true),
    });
  }

  protected take(): DetectorEvent[] {
    const out = this.events;
    if (out.length === 0) return NO_EVENTS;
    this.events = [];
    return out;
  }

  protected emitText(from: number, to: number, alreadyFedFirst = false): void {
    if (to <= from) return;
    const text = this.buf.slice(from, to);
    this.fence.feedText(alreadyFedFirst ? text.slice(1) : text);
    const last = this.events[this.events.length - 1];
    if (last?.type === "text") last.text += text;
    else this.events.push({ type: "text", text });
  }

  protected dropConsumed(): void {
    const st = this.state;
    let floor: number;
    let keepFrom = Infinity;
    if (st.s === "text" || st.s === "comment" || st.s === "confirm") {
      floor = Math.min(this.released.at, this.pos.at);
      if (st.s === "confirm") floor = Math.min(floor, st.tagStart.at);
      if (this.bare.held) floor = Math.min(floor, this.bare.start.at);
    } else {
      // A held bare invoke keeps its region whole (the hold limit bounds it); after flush began, the
      // end-of-input rules work on the restored buffer.
      if (this.bare.held || this.final) return;
      floor = this.pos.at;
      if (st.s === "param" && st.cdata?.isCdata && !st.cdata.ended) floor = Math.min(floor, st.cdata.scan, st.cdata.fenceTracked);
      if (st.s === "param" && st.stream) floor = Math.min(floor, st.stream.emitted);
      if (floor < this.dropAfter) return;
      if (!this.blockAnnounced) keepFrom = this.blockStart.at;
      if (st.s === "param") keepFrom = Math.min(keepFrom, st.bodyStart.at);
      if (st.s === "json") keepFrom = Math.min(keepFrom, st.from.at);
    }
    if (floor <= 0) return;
    // Every position is a cursor (scan-buffer.ts): it follows by itself.
    this.sb.drop(floor, keepFrom);
  }

  /** Puts the kept text back in front of the buffer, so that every position is non-negative again. */
  protected restoreKept(): void {
    this.sb.restore();
  }

  /** buf[from, to) where from may lie in the kept text (negative). */
  protected slice(from: number, to: number): string {
    return this.sb.slice(from, to);
  }

  /** Finds the next tool tag at or after pos, skipping comments and CDATA; null when more input is needed. */
  protected nextTag(from: number): Tag | typeof END_OF_INPUT | null {
    const s = this.buf;
    let i = from;
    // Where the next call may resume when more input is needed: nothing before it is looked at again.
    this.resumeAt = from;
    const skip = this.skip;
    this.skip = null;
    if (skip && skip.state === this.state && skip.at.at === from) {
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
  protected tagFromPos(): Tag | null {
    const r = this.nextTag(this.pos.at);
    if (r === null) this.pos.at = this.resumeAt;
    else if (r === END_OF_INPUT) this.pos.at = this.buf.length;
    else return r;
    return null;
  }

  /** A comment or CDATA section inside a block runs past the input: resume inside it, not at its start. */
  protected skip: { term: string; at: Cursor; state: State } | null = null;

  protected awaitTerminator(term: string, searchedFrom: number): typeof END_OF_INPUT | null {
    const s = this.buf;
    if (this.final) return END_OF_INPUT;
    const at = Math.max(searchedFrom, s.length - (term.length - 1));
    this.skip = { term, at: this.sb.cursor(at), state: this.state };
    this.resumeAt = at;
    return null;
  }

  protected sealIfOther(nextName: string): void {
    this.calls.sealIfOther(this.invoke!, nextName);
  }

  protected seal(): void {
    this.calls.seal(this.invoke!);
  }

  protected emitWholeCall(inv: Invoke): void {
    this.calls.emitWhole(inv);
  }

  // ---------------------------------------------------------------- implemented by the readers

  protected abstract startInvoke(t: Tag, bare: boolean): void;
  protected abstract applyBlock(start: number, block: CanonicalBlock): void;
  protected abstract closeParam(name: string, rawBody: string, cdata?: string, bodyStart?: number, bodyEnd?: number): void;
  protected abstract afterBareInvoke(end: number): void;
  protected abstract resolveBareAt(j: number, end: number): boolean;
  protected abstract releaseBareAtLimit(): boolean;
  protected abstract releaseBare(upTo?: number): boolean;
}
