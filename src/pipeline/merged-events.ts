// Runs of same-channel text from one batch of the reducer's output, merged before the assembler (the separate
// coreReduce stage does the same): the assembler then sees one text event where core sent a token per frame.
import type { CoreEvent } from "./types";
import { none, pushed } from "../util/none";

/** Merges runs of same-channel text events of one batch; everything else passes in order. */
export class MergedEvents {
  private kind: "text" | "thinking" | null = null;
  private pieces: string[] = none();

  constructor(private readonly c: { enqueue(ev: CoreEvent): void }) {}

  readonly emit = (ev: CoreEvent): void => {
    if (ev.type === "text" || ev.type === "thinking") {
      if (this.kind !== ev.type) this.flush();
      this.kind = ev.type;
      this.pieces = pushed(this.pieces, ev.text);
      return;
    }
    this.flush();
    this.c.enqueue(ev);
  };

  flush(): void {
    if (this.kind) this.c.enqueue({ type: this.kind, text: this.pieces.length === 1 ? this.pieces[0]! : this.pieces.join("") });
    this.kind = null;
    this.pieces = none();
  }
}
