// Stream-stage adapters over one step object each, for tests that drive a step with adversarial chunkings as a
// TransformStream: the SSE decoder (bytes → frames), the visible-text cleaner and the svcml detector. Production
// calls the same objects directly (src/core/sse.ts, src/pipeline/cleaner.ts, src/pipeline/svcml/detector.ts), so
// what a test sees is what the gateway runs; the adapters live here because only tests use them (issue 34).
import { SseDecoder, type SseFrame } from "../../src/core/sse";
import { VisibleCleaner, type CleanerOptions } from "../../src/pipeline/cleaner";
import { SvcmlDetector, type DetectorEvent, type DetectorOptions } from "../../src/pipeline/svcml/detector";

/** The SSE decoder as a stage: bytes in, frames out. */
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

/** The cleaner as a stage: text in, cleaned text out (empty pieces are not enqueued). */
export function visibleCleanerStream(opts: CleanerOptions = {}): TransformStream<string, string> {
  const cleaner = new VisibleCleaner(opts);
  return new TransformStream<string, string>({
    transform(chunk, controller) {
      const out = cleaner.push(chunk);
      if (out) controller.enqueue(out);
    },
    flush(controller) {
      const out = cleaner.flush();
      if (out) controller.enqueue(out);
    },
  });
}

/** The detector as a stage: answer text in, detector events out (§2.2); `detector` tells hasUnfinished after. */
export function svcmlDetectStream(opts: DetectorOptions = {}): TransformStream<string, DetectorEvent> & { detector: SvcmlDetector } {
  const detector = new SvcmlDetector(opts);
  const stream = new TransformStream<string, DetectorEvent>({
    transform(chunk, controller) {
      for (const e of detector.push(chunk)) controller.enqueue(e);
    },
    flush(controller) {
      for (const e of detector.flush()) controller.enqueue(e);
    },
  });
  return Object.assign(stream, { detector });
}
