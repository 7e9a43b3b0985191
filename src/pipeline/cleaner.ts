// The visible-output cleaner (svcml-and-prompts.md §1.13): core's role markers (both spellings) and <think>
// tags are removed from visible text and exposed thinking, and an empty json fence is dropped. It holds back
// at most the longest pattern's length, so a marker split across deltas is still removed.
import { ALL_MARKERS, asciiSpelling } from "../prompt/markers";

const PATTERNS = [...ALL_MARKERS, ...ALL_MARKERS.map(asciiSpelling), "<think>", "</think>"];
const MAX = Math.max(...PATTERNS.map((p) => p.length));
const EMPTY_JSON_FENCE = /```json\s*```/g;

export class VisibleCleaner {
  private held = "";

  push(text: string): string {
    const s = this.held + text;
    // Keep a tail that could be the start of a pattern.
    let keep = 0;
    for (let k = Math.min(MAX - 1, s.length); k > 0; k--) {
      const tail = s.slice(s.length - k);
      if (PATTERNS.some((p) => p.startsWith(tail)) || "```json".startsWith(tail) || /^```json\s*$/.test(tail)) {
        keep = k;
        break;
      }
    }
    this.held = s.slice(s.length - keep);
    return clean(s.slice(0, s.length - keep));
  }

  flush(): string {
    const s = this.held;
    this.held = "";
    return clean(s);
  }
}

function clean(s: string): string {
  if (!s.includes("<") && !s.includes("`")) return s;
  let out = s;
  for (const p of PATTERNS) if (out.includes(p)) out = out.split(p).join("");
  return out.replace(EMPTY_JSON_FENCE, "");
}
