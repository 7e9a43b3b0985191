// Feeds the raw bodies of completion and continue rounds into the capture store (D13.1, D13.2): bounded by
// max_body_bytes while streaming, with the full size counted. The runtime hands one chunk per read — one per
// token while core streams slowly — so every 64 of them are copied into one block: an open stream keeps about
// the bytes it read, not an object per token (issue 17).
import type { CaptureStore } from "./captures";
import type { RoundSink } from "../core/completion";
import { concatBytes } from "../util/bytes";

export function captureRounds(store: CaptureStore, chainKey: string, account: string | null) {
  return (round: { label: "completion" | "continue"; round: number; path: string; requestBody: string; status: number; startedAt: number }): RoundSink | undefined => {
    const max = store.settings.max_body_bytes;
    const chunks: Uint8Array[] = [];
    let recent: Uint8Array[] = [];
    let recentBytes = 0;
    const settle = () => {
      if (recent.length === 0) return;
      chunks.push(concatBytes(recent, recentBytes));
      recent = [];
      recentBytes = 0;
    };
    let kept = 0;
    let total = 0;
    let done = false;
    return {
      chunk(bytes) {
        total += bytes.byteLength;
        if (kept >= max) return;
        // A view only when the limit cuts the chunk: a view object per token was a measurable part of its cost.
        const room = max - kept + 4;
        const take = bytes.byteLength <= room ? bytes : bytes.subarray(0, room);
        recent.push(take);
        recentBytes += take.byteLength;
        kept += take.byteLength;
        if (recent.length >= BLOCK_CHUNKS) settle();
      },
      end() {
        if (done) return;
        done = true;
        settle();
        store.record({
          label: round.label,
          chain_key: chainKey,
          round: round.round,
          method: "POST",
          path: round.path,
          account_id: account ?? "",
          status_code: round.status,
          duration_ms: Date.now() - round.startedAt,
          request_body: round.requestBody,
          response_chunks: chunks,
          response_bytes: total,
        });
      },
    };
  };
}

const BLOCK_CHUNKS = 64;
