// The detector's prose reader (svcml-and-prompts.md §1.3, §1.4, §2.3): plain text released up to the next `<` that
// could matter, comments and CDATA in prose, and a wrapper tag waiting for the invoke that confirms it.
import { CONFIRM_GAP_MAX_CHARS } from "./constants";
import { readCanonicalBlock } from "./canonical-block";
import { scanTag, CDATA_OPENER_LENGTH, matchCdataOpener, matchCommentOpener } from "./tag";
import { skipSpaces } from "./spaces";
import { DetectorBase } from "./detector-base";
import type { Cursor } from "./scan-buffer";

export abstract class ProseReader extends DetectorBase {
  protected stepText(): boolean {
    const s = this.buf;
    if (this.bare.held) {
      // A finished bare invoke waits for what follows it: a closing wrapper confirms it.
      if (!this.bare.pending) return false;
      // pos remembers how far the whitespace after it was read, so that none of it is read twice.
      const j = skipSpaces(s, Math.max(this.pos.at, this.bare.pendingEnd.at));
      if (j >= s.length) {
        this.pos.at = j;
        // Hold-back stays bounded even when only whitespace follows.
        return this.bare.overLimit(j) ? this.releaseBareAtLimit() : false;
      }
      return this.resolveBareAt(j, this.bare.pendingEnd.at);
    }
    let i = this.pos.at;
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
    if (i > this.released.at) {
      const text = s.slice(this.released.at, i);
      const last = this.events[this.events.length - 1];
      if (last?.type === "text") last.text += text;
      else this.events.push({ type: "text", text });
      this.released.at = i;
    }
    this.pos.at = i;
    if (i >= s.length) return false;
    // s[i] === "<" outside a fence.
    if (s.charCodeAt(i + 1) === 33) {
      // `<!`: a comment or CDATA opener in prose makes text up to its terminator plain text (§1.3).
      const comment = matchCommentOpener(s, i);
      const cdata = matchCdataOpener(s, i);
      if (comment === 1 || cdata === 1) {
        const openLen = comment === 1 ? 4 : CDATA_OPENER_LENGTH;
        this.emitText(i, i + openLen);
        this.released.at = this.pos.at = i + openLen;
        this.state = { s: "comment", term: comment === 1 ? "-->" : "]]>" };
        return true;
      }
      if ((comment === 0 || cdata === 0) && !this.final) return false;
    } else if (i + 1 >= s.length && !this.final) return false;
    const scan = scanTag(s, i, this.final);
    if (scan.type === "partial") return false;
    if (scan.type === "none") {
      this.emitText(i, scan.resume);
      this.released.at = this.pos.at = scan.resume;
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
      this.state = { s: "confirm", tagStart: this.sb.cursor(tag.start), tagEnd: this.sb.cursor(tag.end) };
      this.pos.at = tag.end;
      return true;
    }
    if (!tag.closing && tag.kind === "tool_calls" && tag.selfClosing) {
      // A self-closing wrapper is an empty block: removed.
      this.fence.markContent();
      this.released.at = this.pos.at = tag.end;
      return true;
    }
    if (!tag.closing && tag.kind === "invoke" && tag.name) {
      // A bare invoke (§1.8): held until a closing wrapper confirms it.
      this.fence.feed("<");
      this.bare.start.at = tag.start;
      this.startInvoke(tag, true);
      return true;
    }
    this.emitText(i, tag.end);
    this.released.at = this.pos.at = tag.end;
    return true;
  }

  protected stepComment(term: string): boolean {
    // Comments and CDATA in prose are text; nothing inside them is held back.
    const s = this.buf;
    const at = s.indexOf(term, this.pos.at);
    if (at < 0) {
      const keep = Math.max(this.pos.at, s.length - (term.length - 1));
      this.emitText(this.released.at, keep);
      this.released.at = this.pos.at = keep;
      if (this.final) {
        this.emitText(this.released.at, s.length);
        this.released.at = this.pos.at = s.length;
      }
      return false;
    }
    this.emitText(this.released.at, at + term.length);
    this.released.at = this.pos.at = at + term.length;
    this.state = { s: "text" };
    return true;
  }

  protected stepConfirm(st: { tagStart: Cursor; tagEnd: Cursor }): boolean {
    const s = this.buf;
    const tagStart = st.tagStart.at;
    const tagEnd = st.tagEnd.at;
    const j = skipSpaces(s, tagEnd);
    const mention = () => {
      // A wrapper mentioned in prose: it and the whitespace after it are text (§1.4).
      this.emitText(tagStart, j, true);
      this.released.at = this.pos.at = j;
      this.state = { s: "text" };
      return true;
    };
    if (j - tagEnd > CONFIRM_GAP_MAX_CHARS) return mention();
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
      this.blockStart.at = tagStart;
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
      this.released.at = this.pos.at = t.end;
      this.state = { s: "text" };
      return true;
    }
    return mention();
  }
}
