// D9.4: text deltas of one channel (thinking, text, one call's arguments) are buffered and flushed at
// 128 characters, 50 ms after their first character, or before any other event. The first delta of each
// channel goes out at once. The concatenation of what leaves is exactly what came in.
import type { TurnEvent } from "./types";
import type { StageController, SyncTransformer } from "./stage";

const FLUSH_CHARS = 128;
const FLUSH_MS = 50;

type Channel = "thinking" | "text" | `args:${number}`;

function channelOf(ev: TurnEvent): Channel | null {
  if (ev.type === "thinking" || ev.type === "text") return ev.type;
  if (ev.type === "call_args") return `args:${ev.index}`;
  return null;
}

function make(channel: Channel, text: string): TurnEvent {
  if (channel === "thinking") return { type: "thinking", text };
  if (channel === "text") return { type: "text", text };
  return { type: "call_args", index: Number(channel.slice(5)), fragment: text };
}

function deltaText(ev: TurnEvent): string {
  return ev.type === "call_args" ? ev.fragment : ev.type === "thinking" || ev.type === "text" ? ev.text : "";
}

/** Never ends a flushed piece with the high half of a surrogate pair. */
function safeCut(text: string): number {
  const last = text.charCodeAt(text.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? text.length - 1 : text.length;
}

export function coalesceStage(opts: { flushChars?: number; flushMs?: number } = {}): SyncTransformer<TurnEvent, TurnEvent> {
  return new Coalescer(opts.flushChars ?? FLUSH_CHARS, opts.flushMs ?? FLUSH_MS);
}

/** A class, not closures: an open stream keeps its coalescer for as long as it lives (issue 35). */
class Coalescer implements SyncTransformer<TurnEvent, TurnEvent> {
  private channel: Channel | null = null;
  private buffer = "";
  // Channels whose first delta went out: flags for the answer's two, a set (made on first use) for calls' arguments
  // only (issue 35: a set and its storage per open stream, for most streams only ever the two).
  private seenText = false;
  private seenThinking = false;
  private seenArgs: Set<Channel> | null = null;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private controller!: StageController<TurnEvent>;

  constructor(
    private readonly flushChars: number,
    private readonly flushMs: number,
  ) {}

  start(c: StageController<TurnEvent>): void {
    this.controller = c;
  }

  transform(ev: TurnEvent): void {
    const ch = channelOf(ev);
    if (ch === null) {
      this.flushHeld(true);
      this.channel = null;
      this.controller.enqueue(ev);
      return;
    }
    if (ch !== this.channel) {
      this.flushHeld(true);
      this.channel = ch;
    }
    const text = deltaText(ev);
    if (text === "") return;
    if (!this.seenBefore(ch)) {
      this.buffer += text;
      this.flushHeld(false);
      return;
    }
    this.buffer += text;
    if (this.buffer.length >= this.flushChars) this.flushHeld(false);
    // A shared callback given this coalescer as its argument: no closure per stream.
    else if (!this.timer) this.timer = setTimeout(flushLater, this.flushMs, this);
  }

  flush(): void {
    this.flushHeld(true);
  }

  /** Whether `ch` had a delta before; marks it as having had one. */
  private seenBefore(ch: Channel): boolean {
    if (ch === "text") {
      if (this.seenText) return true;
      this.seenText = true;
      return false;
    }
    if (ch === "thinking") {
      if (this.seenThinking) return true;
      this.seenThinking = true;
      return false;
    }
    const seen = (this.seenArgs ??= new Set());
    if (seen.has(ch)) return true;
    seen.add(ch);
    return false;
  }

  flushHeld(all: boolean): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    const { channel, buffer } = this;
    if (!channel || buffer === "") return;
    const cut = all ? buffer.length : safeCut(buffer);
    if (cut === 0) return;
    this.controller.enqueue(make(channel, buffer.slice(0, cut)));
    this.buffer = buffer.slice(cut);
  }

  /** The timer's flush. */
  timed(): void {
    this.timer = undefined;
    try {
      this.flushHeld(false);
    } catch {
      this.buffer = "";
    }
  }
}

// The timer fires outside any read: when the client has left meanwhile the stream is gone, and the enqueue
// throws. Nobody wants those characters any more; the error must not escape as an uncaught exception.
function flushLater(c: Coalescer): void {
  c.timed();
}
