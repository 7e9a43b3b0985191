// Feeds the raw bodies of completion and continue rounds into the capture store (D13.1, D13.2): bounded by
// max_body_bytes while streaming, with the full size counted.
import type { CaptureStore } from "./captures";
import type { RoundSink } from "../core/completion";

export function captureRounds(store: CaptureStore, chainKey: string, account: string | null) {
  return (round: { label: "completion" | "continue"; round: number; path: string; requestBody: string; status: number; startedAt: number }): RoundSink | undefined => {
    const max = store.settings.max_body_bytes;
    const chunks: Uint8Array[] = [];
    let kept = 0;
    let total = 0;
    let done = false;
    return {
      chunk(bytes) {
        total += bytes.byteLength;
        if (kept >= max) return;
        const take = bytes.subarray(0, Math.min(bytes.byteLength, max - kept + 4));
        chunks.push(take);
        kept += take.byteLength;
      },
      end() {
        if (done) return;
        done = true;
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
