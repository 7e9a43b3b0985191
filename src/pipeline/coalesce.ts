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
  const flushChars = opts.flushChars ?? FLUSH_CHARS;
  const flushMs = opts.flushMs ?? FLUSH_MS;
  let channel: Channel | null = null;
  let buffer = "";
  const seen = new Set<Channel>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let controller!: StageController<TurnEvent>;

  const flush = (all: boolean) => {
    if (timer) {
      clearTimeout(timer);
      timer = undefined;
    }
    if (!channel || buffer === "") return;
    const cut = all ? buffer.length : safeCut(buffer);
    if (cut === 0) return;
    controller.enqueue(make(channel, buffer.slice(0, cut)));
    buffer = buffer.slice(cut);
  };

  // The timer fires outside any read: when the client has left meanwhile the stream is gone, and the enqueue
  // throws. Nobody wants those characters any more; the error must not escape as an uncaught exception.
  const flushLater = () => {
    timer = undefined;
    try {
      flush(false);
    } catch {
      buffer = "";
    }
  };

  return {
    start(c) {
      controller = c;
    },
    transform(ev) {
      const ch = channelOf(ev);
      if (ch === null) {
        flush(true);
        channel = null;
        controller.enqueue(ev);
        return;
      }
      if (ch !== channel) {
        flush(true);
        channel = ch;
      }
      const text = deltaText(ev);
      if (text === "") return;
      if (!seen.has(ch)) {
        seen.add(ch);
        buffer += text;
        flush(false);
        return;
      }
      buffer += text;
      if (buffer.length >= flushChars) flush(false);
      else if (!timer) timer = setTimeout(flushLater, flushMs);
    },
    flush() {
      flush(true);
    },
  };
}

