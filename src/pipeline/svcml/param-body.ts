// The parameter body reader of the svcml detector (svcml-and-prompts.md §1.6): whether a body is a CDATA value or
// plain text, and where a CDATA value ends — the first `]]>` not inside a code fence opened within the value, a
// `]]>` directly followed by another CDATA opener joining the sections. It only moves its own scan positions;
// what a value means and where the parameter closes is the detector's. Its positions are cursors in the scan
// buffer (scan-buffer.ts): indexes into the text it is given, which stay right when the buffer drops text.
import { FenceTracker, type NewlineCache } from "./fence";
import { CDATA_OPENER_LENGTH, matchCdataOpener } from "./tag";
import { Cursor, type Origin } from "./scan-buffer";

export interface CdataScan {
  /** Whether the body is a CDATA value; false: a plain body (the position fields are unused). */
  isCdata: boolean;
  /** Where the value's content begins (after the first CDATA opener). */
  readonly valueStart: number;
  /** Position after which to look for the end of the current section. */
  scan: number;
  fence: FenceTracker;
  fenceTracked: number;
  /** The first ]]> passed over because it was inside a fence (for the end-of-input fallback). */
  skippedEnd: number;
  /** Whether skippedEnd is set (it may be negative once consumed text was dropped). */
  skipped: boolean;
  /** Where the value's content ends (its `]]>`), once ended. */
  valueEnd: number;
  /** Whether a second section was joined to the value. */
  rejoined: boolean;
  ended: boolean;
  /** Told where a `]]>` rejoins the next section (its 12 characters are not content), for a streamed value. */
  onJoin?: (at: number) => void;
}

/** The value scan of a plain (non-CDATA) body: nothing to track, so one shared, never-changed instance. */
export const PLAIN_BODY: CdataScan = Object.freeze({ isCdata: false, valueStart: -1, scan: -1, fence: new FenceTracker(), fenceTracked: 0, skippedEnd: -1, skipped: false, valueEnd: -1, rejoined: false, ended: true }) as CdataScan;

/** The position fields of a CDATA value's scan. */
const POSITIONS = ["valueStart", "scan", "fenceTracked", "skippedEnd", "valueEnd"] as const;

/**
 * A CDATA value's scan state, its positions held as cursors of the buffer `s` is the text of: each position field
 * reads and writes its cursor (the accessors are defined below, one per field). valueEnd is a cleared cursor
 * until the value ends, so `valueEnd >= 0` says whether it ended at a `]]>`.
 */
class CdataValueScan implements CdataScan {
  declare readonly valueStart: number;
  declare scan: number;
  declare fenceTracked: number;
  declare skippedEnd: number;
  declare valueEnd: number;
  readonly isCdata = true;
  readonly fence: FenceTracker;
  skipped = false;
  rejoined = false;
  ended = false;
  onJoin?: (at: number) => void;
  private readonly at: Record<(typeof POSITIONS)[number], Cursor>;

  constructor(buffer: Origin, start: number, lines: NewlineCache) {
    this.fence = new FenceTracker(lines);
    const at = (i: number) => new Cursor(buffer, i);
    this.at = { valueStart: at(start), scan: at(start), fenceTracked: at(start), skippedEnd: at(-1), valueEnd: at(-1) };
    this.at.valueEnd.clear();
  }
}
for (const key of POSITIONS) {
  Object.defineProperty(CdataValueScan.prototype, key, {
    get(this: { at: Record<string, Cursor> }) {
      return this.at[key]!.at;
    },
    set(this: { at: Record<string, Cursor> }, index: number) {
      this.at[key]!.at = index;
    },
  });
}

/** Positions of a text that is not a scan buffer: indexes into it as they are. */
const FIXED_TEXT: Origin = Object.freeze({ origin: 0 });

/**
 * The body that starts at j: a CDATA value's scan state, the shared plain-body marker, or null while the text
 * does not yet tell (a partial `<![CDATA[` at the end of a chunk). `buffer` is the scan buffer `s` is the text of.
 */
export function openBody(s: string, j: number, final: boolean, lines: NewlineCache, buffer: Origin = FIXED_TEXT): CdataScan | null {
  const opener = matchCdataOpener(s, j);
  if (opener === 0 && !final) return null;
  if (opener !== 1) return PLAIN_BODY;
  return new CdataValueScan(buffer, j + CDATA_OPENER_LENGTH, lines);
}

/**
 * Looks for the end of a CDATA value in s: "ended" (c.valueEnd is set), "read all" (no end yet: everything up to
 * where a split `]]>` could begin is scanned), "wait" (a `]]>` is followed by a partial opener: the next chunk
 * decides whether the value goes on), or "end of input" (final, and no end: the end-of-input rules apply).
 */
export function scanCdataValue(s: string, c: CdataScan, final: boolean): "ended" | "read all" | "wait" | "end of input" {
  for (;;) {
    const at = s.indexOf("]]>", c.scan);
    const upto = at < 0 ? Math.max(c.fenceTracked, s.length - 2) : at;
    c.fence.feedRange(s, c.fenceTracked, upto);
    c.fenceTracked = Math.max(c.fenceTracked, upto);
    if (at < 0) {
      if (final) return "end of input";
      // Resume the search where a split `]]>` could still begin.
      c.scan = Math.max(c.scan, s.length - 2);
      return "read all";
    }
    if (c.fence.wouldBeInFence("]")) {
      if (!c.skipped) {
        c.skipped = true;
        c.skippedEnd = at;
      }
      c.scan = at + 1;
      continue;
    }
    // `]]>` right before another CDATA opener rejoins the value.
    const rejoin = matchCdataOpener(s, at + 3);
    if (rejoin === 0 && !final) return "wait";
    if (rejoin === 1) {
      c.rejoined = true;
      c.onJoin?.(at);
      c.fence.feedRange(s, c.fenceTracked, at + 12);
      c.fenceTracked = at + 12;
      c.scan = at + 12;
      continue;
    }
    c.ended = true;
    c.valueEnd = at;
    return "ended";
  }
}
