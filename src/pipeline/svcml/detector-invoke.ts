// The detector's block and invoke reader (svcml-and-prompts.md §1.4, §1.5): tags inside a confirmed block, an
// invoke's parameters and inline JSON body, and the end of an invoke (kept, dropped, or held as a bare one).
import { hasNonSpace, skipSpaces } from "./spaces";
import { newInvoke } from "./call-builder";
import type { CanonicalBlock } from "./canonical-block";
import type { Tag } from "./tag";
import { ProseReader } from "./detector-prose";
import type { Cursor } from "./scan-buffer";

export abstract class InvokeReader extends ProseReader {
  protected stepBlock(): boolean {
    const t = this.tagFromPos();
    if (!t) return false;
    this.pos.at = t.end;
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
  protected applyBlock(start: number, block: CanonicalBlock): void {
    const s = this.buf;
    this.blockStart.at = start;
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

  protected endBlock(end: number): void {
    this.fence.markContent();
    this.released.at = this.pos.at = end;
    this.blockStart.clear();
    this.inBlock = false;
    // What was kept for slices into the block is never asked for again.
    this.sb.forgetKept();
    this.state = { s: "text" };
  }

  protected startInvoke(t: Tag, bare: boolean): void {
    this.invoke = newInvoke(t.name, bare);
    this.pos.at = t.end;
    if (t.selfClosing) {
      this.endInvoke(t.end);
      return;
    }
    this.state = { s: "invoke" };
  }

  protected stepInvoke(): boolean {
    const inv = this.invoke!;
    const s = this.buf;
    if (!inv.bodyStarted) {
      const j = skipSpaces(s, this.pos.at);
      if (j >= s.length && !this.final) {
        this.pos.at = j;
        return false;
      }
      inv.bodyStarted = true;
      if (s[j] === "{") {
        inv.jsonBody = true;
        this.state = { s: "json", from: this.sb.cursor(j) };
        this.pos.at = j;
        return true;
      }
      // A bare invoke is only held when its body starts like a call (§1.8).
      if (inv.bare && j < s.length && s[j] !== "<" && s[j] !== "[") return this.releaseBare();
    }
    if (inv.bare && this.bare.overLimit(this.pos.at)) return this.releaseBareAtLimit();
    const from = this.pos.at;
    const t = this.tagFromPos();
    // Text between an invoke's tags (other than whitespace) makes a parameterless invoke a rejected one.
    if (!inv.nonBlank && hasNonSpace(s, from, t ? t.start : this.pos.at)) inv.nonBlank = true;
    if (!t) return false;
    if (t.kind === "parameter" && !t.closing) {
      this.sealIfOther(t.name.trim());
      if (t.selfClosing) {
        this.pos.at = t.end;
        if (t.name.trim()) this.closeParam(t.name.trim(), "");
        return true;
      }
      this.state = { s: "param", name: t.name.trim(), bodyStart: this.sb.cursor(t.end), depth: 1, cdata: null, stream: null };
      this.pos.at = t.end;
      return true;
    }
    if (t.kind === "invoke" && t.closing) {
      this.pos.at = t.end;
      this.endInvoke(t.end);
      return true;
    }
    if (t.kind === "tool_calls" && t.closing) {
      // Implicit close of the invoke; the wrapper close is handled by the block.
      this.endInvoke(t.start);
      this.pos.at = t.start;
      return true;
    }
    if (t.kind === "invoke" && !t.closing) {
      this.endInvoke(t.start);
      this.pos.at = t.start;
      return true;
    }
    // Stray tool tags inside an invoke are discarded.
    this.pos.at = t.end;
    return true;
  }

  protected stepJson(st: { from: Cursor }): boolean {
    const t = this.tagFromPos();
    if (!t) return false;
    const endsBody = (t.kind === "invoke") || (t.kind === "tool_calls" && t.closing);
    if (!endsBody) {
      this.pos.at = t.end;
      return true;
    }
    const text = this.slice(st.from.at, t.start).trim();
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
      this.pos.at = t.end;
      this.endInvoke(t.end);
    } else {
      this.pos.at = t.start;
      this.endInvoke(t.start);
    }
    return true;
  }

  protected endInvoke(end: number): void {
    const inv = this.invoke!;
    this.invoke = null;
    const keep = this.calls.keeps(inv);
    if (inv.bare) {
      if (keep) this.bare.calls.push(inv);
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
}
