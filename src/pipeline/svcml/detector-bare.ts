// The detector's bare-invoke hold (svcml-and-prompts.md §1.8): an invoke in prose without its wrapper is held as a
// possible call until a closing wrapper confirms it, or released as text — by what follows it, at the end of
// input, or at the hold limit, at one fixed point so that the text that comes out does not depend on chunking.
import { scanTag } from "./tag";
import { skipSpaces } from "./spaces";
import { ParamReader } from "./detector-param";

export abstract class BareInvokeReader extends ParamReader {
  protected afterBareInvoke(end: number): void {
    this.pos.at = end;
    this.state = { s: "text" };
    const s = this.buf;
    const j = skipSpaces(s, end);
    if (j >= s.length) {
      if (this.final) this.releaseBare();
      else this.bare.pendingEnd.at = end;
      return;
    }
    this.resolveBareAt(j, end);
  }

  protected resolveBareAt(j: number, end: number): boolean {
    const s = this.buf;
    // The held region is measured up to what decides it, however the text was chunked (§1.8).
    if (this.bare.overLimit(j)) return this.releaseBareAtLimit();
    if (s[j] !== "<") return this.releaseBare(end);
    const scan = scanTag(s, j, this.final);
    if (scan.type === "partial") {
      this.bare.pendingEnd.at = end;
      return false;
    }
    if (scan.type === "tag" && scan.kind === "tool_calls" && scan.closing) {
      // Confirmed: every held bare invoke is a call; the region and the closing wrapper are removed.
      const calls = this.bare.end();
      if (!this.opts.suppress) for (const inv of calls) this.emitWholeCall(inv);
      this.fence.markContent();
      this.released.at = this.pos.at = scan.end;
      this.state = { s: "text" };
      return true;
    }
    if (scan.type === "tag" && scan.kind === "invoke" && !scan.closing && scan.name) {
      this.bare.pendingEnd.clear();
      this.startInvoke(scan, true);
      return true;
    }
    return this.releaseBare(end);
  }

  /** The hold limit (§1.8, bare-hold.ts): the region is released at its one fixed point. */
  protected releaseBareAtLimit(): boolean {
    return this.releaseBare(this.bare.limitPoint);
  }

  /** The held region becomes visible text again; scanning resumes after it. */
  protected releaseBare(upTo?: number): boolean {
    const start = this.bare.start.at;
    const end = upTo ?? (this.bare.pending ? this.bare.pendingEnd.at : this.pos.at);
    this.bare.end();
    this.invoke = null;
    this.emitText(start, end, true);
    this.released.at = this.pos.at = end;
    this.state = { s: "text" };
    return true;
  }
}
