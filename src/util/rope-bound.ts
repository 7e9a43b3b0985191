// JavaScriptCore keeps `s += piece` as a rope: one node per append, until something reads the string's
// characters. An answer appended token by token in several places (the reducer, the assembler's report, the
// accumulator, core's patch document) held several rope nodes per token while its stream was open (figures in
// docs/PERFORMANCE.md, "Measurements behind code choices"). A RopeBound has a growing string flattened now and
// then: once its unflattened tail holds at least 128 appends and an eighth of the text. The copying stays linear
// in the text's length (each flattening copies at most nine times what was appended since the last one) and the
// nodes left are a bounded part of the text.

const MIN_APPENDS = 128;
const TAIL_SHARE = 8;

let sink = 0;

/** Has the engine resolve a rope into one flat string: reading a character of it does that. */
export function flatten(s: string): void {
  // A module-level write keeps the read from being optimised away (charCodeAt of "" is NaN; `| 0` makes it 0).
  sink = (sink + s.charCodeAt(0)) | 0;
}

export class RopeBound {
  private appends = 0;
  private tail = 0;
  private flat = 0;

  /** Call after appending `pieceLength` characters to `s` (`s` is the string as it is now); true when it flattened `s`. */
  grew(s: string, pieceLength: number): boolean {
    this.tail += pieceLength;
    if (++this.appends < MIN_APPENDS || this.tail * TAIL_SHARE < this.flat) return false;
    flatten(s);
    this.flat = s.length;
    this.tail = 0;
    this.appends = 0;
    return true;
  }

  /** The string was replaced (not grown): count from it afresh. */
  reset(length = 0): void {
    this.appends = 0;
    this.tail = 0;
    this.flat = length;
  }
}
