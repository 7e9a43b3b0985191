// sseDecode: the SSE decoder of core/sse.ts as a TransformStream stage (bytes → frames), for tests and for
// streams that do not come from the core client (which hands on frames it has already decoded, issue 17).
import { SseDecoder, type SseFrame } from "../core/sse";

export { SseDecoder };

export function sseDecode(): TransformStream<Uint8Array, SseFrame> {
  const d = new SseDecoder();
  return new TransformStream<Uint8Array, SseFrame>({
    transform(chunk, c) {
      for (const f of d.push(chunk)) c.enqueue(f);
    },
    flush(c) {
      for (const f of d.end()) c.enqueue(f);
    },
  });
}
