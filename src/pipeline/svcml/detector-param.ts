// The detector's parameter reader (svcml-and-prompts.md §1.6, §1.7, §1.11, §2.5): where a value ends (CDATA or
// plain), the end-of-input repair, the value's reading (typed, or the source text of a string parameter), and a
// string parameter's value streamed while core writes it (string-stream.ts).
import { scanTag } from "./tag";
import { NEEDS_RAW_BODY, sourceText, typeCdataValue, typeParameterValue, typeParameterValueByProbes } from "./typing";
import { hasNonSpace, skipSpaces } from "./spaces";
import { openBody, scanCdataValue, type CdataScan } from "./param-body";
import { paramReading } from "./coerce";
import { StringStream } from "./string-stream";
import type { ParamState } from "./detector-base";
import { InvokeReader } from "./detector-invoke";

export abstract class ParamReader extends InvokeReader {
  protected stepParam(st: ParamState): boolean {
    const s = this.buf;
    if (st.cdata === null) {
      // pos (bodyStart on entry) remembers how far the leading whitespace was read.
      const j = skipSpaces(s, Math.max(this.pos.at, st.bodyStart.at));
      if (j >= s.length && !this.final) {
        this.pos.at = j;
        return false;
      }
      const body = openBody(s, j, this.final, this.lines, this.sb);
      if (!body) return false;
      st.cdata = body;
      this.pos.at = j;
      if (body.isCdata) this.maybeStream(st, body);
    }
    const c = st.cdata;
    if (!c.ended) {
      // Inside a CDATA value (param-body.ts).
      const r = scanCdataValue(s, c, this.final);
      if (st.stream) this.streamAfterScan(st.stream, c, r);
      if (r === "end of input") return this.cdataAtEnd(st);
      if (r === "read all") {
        this.pos.at = s.length;
        return false;
      }
      if (r === "wait") return false;
      this.pos.at = c.valueEnd + 3;
    }
    // After the value (or in a plain body): find the closing parameter tag.
    const t = this.tagFromPos();
    if (!t) return false;
    if (t.kind === "parameter") {
      if (!t.closing) {
        if (!t.selfClosing && !c.isCdata) st.depth++;
        this.pos.at = t.end;
        return true;
      }
      st.depth--;
      if (st.depth > 0) {
        this.pos.at = t.end;
        return true;
      }
      this.pos.at = t.end;
      this.state = { s: "invoke" };
      if (st.name) {
        // One CDATA section with only whitespace after it: its text is the value, already located.
        const single = c.isCdata && !c.rejoined && !c.skipped && c.valueEnd >= 0 && !hasNonSpace(s, c.valueEnd + 3, t.start);
        if (single) this.closeParam(st.name, "", this.slice(c.valueStart, c.valueEnd), st.bodyStart.at, t.start);
        else this.closeParam(st.name, this.slice(st.bodyStart.at, t.start));
      }
      return true;
    }
    if (t.kind === "invoke" || (t.kind === "tool_calls" && t.closing)) {
      // The invoke ends early: the parameter is kept only when its CDATA value had ended (§1.5). A dropped one
      // is body text that was not a kept parameter: with none kept, the invoke is rejected, never a `{}` call.
      if (c.isCdata && c.ended && st.name) this.closeParam(st.name, this.slice(st.bodyStart.at, t.start));
      else this.invoke!.nonBlank = true;
      this.state = { s: "invoke" };
      this.pos.at = t.start;
      return true;
    }
    this.pos.at = t.end;
    return true;
  }

  /** End of input inside a CDATA value (§1.6): the fence fallback, else the narrow repair. */
  protected cdataAtEnd(st: ParamState): boolean {
    const c = st.cdata!;
    const s = this.buf;
    if (c.skipped) {
      c.ended = true;
      this.pos.at = c.skippedEnd + 3;
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
        const body = s.slice(st.bodyStart.at, k);
        const t = scan;
        this.state = { s: "invoke" };
        if (t.kind === "parameter") {
          this.pos.at = t.end;
          if (st.name) this.closeParam(st.name, `${body.trimEnd()}]]>`);
        } else {
          if (st.name) this.closeParam(st.name, `${body.trimEnd()}]]>`);
          this.pos.at = t.start;
        }
        return true;
      }
      i = k + 1;
    }
    // No closing tag: the parameter is still open at the end of input.
    this.pos.at = s.length;
    return false;
  }

  /**
   * A parameter closed: its value typed (§1.7) and handed to the call builder. For a value the typing needs the
   * raw body of, it is read from bodyStart/bodyEnd (rawBody is then unused).
   */
  protected closeParam(name: string, rawBody: string, cdata?: string, bodyStart = 0, bodyEnd = 0): void {
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
  protected maybeStream(st: ParamState, c: CdataScan): void {
    const inv = this.invoke!;
    if (this.opts.suppress || inv.bare || !inv.name || !st.name || !this.calls.isNewMember(inv, st.name)) return;
    if (paramReading(this.opts.tools, inv.name, st.name) === "typed") return;
    const stream = new StringStream(this.sb.cursor(c.valueStart), {
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
  protected valueStream: StringStream | null = null;

  /** After the CDATA scan: what it has read is content up to the possible end it holds back (param-body.ts). */
  protected streamAfterScan(stream: StringStream, c: CdataScan, r: ReturnType<typeof scanCdataValue>): void {
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
}
