// One-pass reader for a tool-call block that is complete in the buffer and written exactly as the prompt
// teaches it (svcml-and-prompts.md §2): canonical tags, whitespace between them, each parameter's value one
// CDATA section or plain text without `<`. Most blocks of an answer pushed in large pieces look like this.
// The state machine reads such a block one tag per step, each step dispatching on the state, looking for the
// next tag and re-checking for input that ends early; this reader walks it once and reports where each part
// is, without changing anything. The detector then applies the parts through the same handlers the state
// machine calls, in the same order, so the events are the same. Anything else (another spelling, a comment,
// text between tags, a JSON body, a value closed inside a fence, a block that runs past the input) returns
// null and the state machine reads the block as before: this reader only ever answers for input whose
// reading is not in doubt.
import { CONFIRM_GAP_MAX_CHARS } from "./constants";
import { FenceTracker, type NewlineCache } from "./fence";
import { skipSpaces } from "./spaces";
import { canonicalCloseEnd, canonicalTag, CDATA_OPENER_LENGTH, matchCdataOpener, type Tag } from "./tag";

export interface BlockParam {
  name: string;
  /** The raw body: from after the opening tag to the closing tag's `<`. */
  bodyStart: number;
  bodyEnd: number;
  /** The CDATA section's content, or -1 for a plain body. */
  valueStart: number;
  valueEnd: number;
}

export interface BlockInvoke {
  open: Tag;
  params: BlockParam[];
  /** After `</|svcml|invoke>`. */
  end: number;
}

export interface CanonicalBlock {
  invokes: BlockInvoke[];
  /** After `</|svcml|tool_calls>`. */
  end: number;
}

/**
 * Reads the block whose opening wrapper ends at `openEnd`, or returns null when the block is not in the
 * canonical shape or not complete in s. Time is linear in the part of s it reads. `lines`: the detector's
 * newline search cache (the fence check of a CDATA value reads the same buffer).
 */
export function readCanonicalBlock(s: string, openEnd: number, lines: NewlineCache): CanonicalBlock | null {
  let at = skipSpaces(s, openEnd);
  // The confirmation rule (§1.4): an invoke must follow the wrapper within the gap.
  if (at - openEnd > CONFIRM_GAP_MAX_CHARS) return null;
  const invokes: BlockInvoke[] = [];
  for (;;) {
    const open = canonicalTag(s, at);
    if (open === null || open.kind !== "invoke" || open.closing || open.name === "") return null;
    const invoke: BlockInvoke = { open, params: [], end: -1 };
    at = skipSpaces(s, open.end);
    for (;;) {
      const end = canonicalCloseEnd(s, at, "invoke");
      if (end >= 0) {
        invoke.end = end;
        break;
      }
      const param = readParam(s, at, lines);
      if (param === null) return null;
      invoke.params.push(param);
      at = skipSpaces(s, param.end);
    }
    invokes.push(invoke);
    at = skipSpaces(s, invoke.end);
    const end = canonicalCloseEnd(s, at, "tool_calls");
    if (end >= 0) return { invokes, end };
  }
}

/** The parameter whose opening tag is at s[at], up to and including its closing tag. */
function readParam(s: string, at: number, lines: NewlineCache): (BlockParam & { end: number }) | null {
  const open = canonicalTag(s, at);
  if (open === null || open.kind !== "parameter" || open.closing || open.name === "") return null;
  const bodyStart = open.end;
  const v = skipSpaces(s, bodyStart);
  let valueStart = -1;
  let valueEnd = -1;
  let closeAt: number;
  if (matchCdataOpener(s, v) === 1) {
    valueStart = v + CDATA_OPENER_LENGTH;
    valueEnd = s.indexOf("]]>", valueStart);
    if (valueEnd < 0) return null;
    // The first `]]>` ends the value unless a fence opened inside the value holds it (§1.6): left to the
    // state machine, as is a second section joined to the first.
    const fence = new FenceTracker(lines);
    fence.feedRange(s, valueStart, valueEnd);
    if (fence.wouldBeInFence("]")) return null;
    if (matchCdataOpener(s, valueEnd + 3) !== -1) return null;
    closeAt = skipSpaces(s, valueEnd + 3);
  } else {
    // A plain body holds no `<` before its closing tag.
    closeAt = s.indexOf("<", v);
    if (closeAt < 0) return null;
  }
  const end = canonicalCloseEnd(s, closeAt, "parameter");
  if (end < 0) return null;
  return { name: open.name, bodyStart, bodyEnd: closeAt, valueStart, valueEnd, end };
}
