// Reads a server-sent event stream and yields each JSON payload ([DONE] ends it), with the gateway's own SSE
// decoder (core/sse.ts, bundled into the console): linear in the stream, any chunking, every line-end form.
import { SseDecoder } from "../../core/sse";

/** T: what the caller knows the events to be (the payloads are JSON the gateway wrote, not checked here). */
export async function* sseData<T = unknown>(body: ReadableStream<Uint8Array>): AsyncGenerator<T> {
  const reader = body.getReader();
  const decoder = new SseDecoder();
  for (;;) {
    const { done, value } = await reader.read();
    for (const frame of done ? decoder.end() : decoder.push(value)) {
      if (frame.comment || !frame.data) continue;
      if (frame.data === "[DONE]") return;
      try {
        yield JSON.parse(frame.data);
      } catch {
        // Not JSON: nothing to show.
      }
    }
    if (done) return;
  }
}
