// The streaming svcml detector (svcml-and-prompts.md §2): answer text in, visible text and incremental tool
// calls out. A resumable state machine over one buffer: scan positions only move forward, text is held back
// only while a tag prefix, an unconfirmed wrapper or a bare invoke is pending, and consumed prose is dropped
// from the buffer. A block that is complete in the buffer and written as the prompt teaches is read in one
// pass instead (canonical-block.ts) and applied through the same handlers. One concern a file: the shared
// state (detector-base.ts), prose (detector-prose.ts), blocks and invokes (detector-invoke.ts), parameter
// values (detector-param.ts), bare invokes (detector-bare.ts, over the hold of bare-hold.ts); here the public
// face, the step loop and §2.6.
import { skipSpaces } from "./spaces";
import { BareInvokeReader } from "./detector-bare";
import type { DetectorEvent, DetectorOptions } from "./detector-base";

export type { DetectorEvent, DetectorOptions } from "./detector-base";

export class SvcmlDetector extends BareInvokeReader {
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

  protected run(): void {
    for (let guard = 0; guard < 1_000_000; guard++) {
      const progressed = this.step();
      // A step inside a held bare invoke may read far past the hold limit in one go (a long value).
      if (this.bare.overLimit(this.pos.at) && this.state.s !== "text") this.releaseBareAtLimit();
      else if (!progressed) break;
    }
    this.dropConsumed();
  }

  protected step(): boolean {
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

  protected finishAtEnd(): void {
    this.valueStream = null;
    if (this.bare.held) {
      if (this.bare.pending) {
        const j = skipSpaces(this.buf, this.bare.pendingEnd.at);
        if (j < this.buf.length) {
          this.resolveBareAt(j, this.bare.pendingEnd.at);
          this.run();
        }
      }
      if (this.bare.held) this.releaseBare(this.buf.length);
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
        this.emitText(this.blockStart.at, this.buf.length, true);
      }
      this.blockStart.clear();
      this.inBlock = false;
      this.released.at = this.pos.at = this.buf.length;
      this.state = { s: "text" };
      this.invoke = null;
    }
    if (this.state.s === "text" && this.released.at < this.buf.length) {
      this.emitText(this.released.at, this.buf.length);
      this.released.at = this.pos.at = this.buf.length;
    }
  }
}
