// Test-side reading of simulator streams: SSE decoding and the gateway's patch reducer (PatchState), with
// emission by fragment id (core-upstream §7.7), so scenario output is checked the way the gateway reads it.
import { PatchState } from "../../src/pipeline/patch-state";
import { SseDecoder } from "../../src/core/sse";

export interface Reduced {
  thinking: string;
  answer: string;
  status: unknown;
  quasi: unknown;
  usage: unknown;
  events: string[];
  response: Record<string, any> | undefined;
}

/** Reduces one or more round bodies of one answer; the emitted-length table survives rounds. */
export function reduceRounds(bodies: string[]): Reduced {
  const st = new PatchState();
  const seen = new Map<string, number>();
  const out: Reduced = { thinking: "", answer: "", status: undefined, quasi: undefined, usage: undefined, events: [], response: undefined };
  for (const body of bodies) {
    const d = new SseDecoder();
    const frames = [...d.push(body), ...d.end()];
    for (const f of frames) {
      out.events.push(f.event);
      if (f.event === "ready") st.resetSticky();
      if (f.event !== "message" || !f.data.startsWith("{")) continue;
      st.apply(JSON.parse(f.data));
      const frags = (st.response?.fragments ?? []) as any[];
      frags.forEach((fr, i) => {
        const key = typeof fr?.id === "number" ? `id${fr.id}` : `ix${i}`;
        const chan = fr?.type === "THINK" || fr?.type === "THINKING" ? "thinking" : fr?.type === "RESPONSE" ? "answer" : null;
        if (!chan || typeof fr.content !== "string") return;
        const done = seen.get(key) ?? 0;
        if (fr.content.length > done) {
          out[chan] += fr.content.slice(done);
          seen.set(key, fr.content.length);
        }
      });
    }
  }
  out.response = st.response as any;
  out.status = st.response?.status;
  out.quasi = st.response?.quasi_status;
  out.usage = st.response?.accumulated_token_usage;
  return out;
}

export const stripMarkers = (s: string) => s.replace(/\[reference:\s*\d+\]/gi, "");
