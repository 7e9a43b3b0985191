// Reads a server-sent event stream and yields each JSON payload ([DONE] ends it), with the gateway's own SSE
// decoder (core/sse.ts, bundled into the console): linear in the stream, any chunking, every line-end form.
import { SseDecoder } from "../../core/sse";

export async function* sseData(body: ReadableStream<Uint8Array>): AsyncGenerator<any> {
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
