// The simulator's own view of concurrency: completion/continue bodies being streamed right now, per account,
// and the highest such figures since the last reset. Multi-instance tests check the gateway's global limits
// against this, from core's side, rather than trusting the gateway's own counters.
export class LiveStreams {
  private live = new Map<string, number>();
  private peak = new Map<string, number>();
  private total = 0;
  private peakTotal = 0;

  /** A body starts streaming on `account`; the returned function ends it (idempotent). */
  begin(account: string): () => void {
    const n = (this.live.get(account) ?? 0) + 1;
    this.live.set(account, n);
    if (n > (this.peak.get(account) ?? 0)) this.peak.set(account, n);
    this.total++;
    if (this.total > this.peakTotal) this.peakTotal = this.total;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      const left = (this.live.get(account) ?? 1) - 1;
      if (left <= 0) this.live.delete(account);
      else this.live.set(account, left);
      this.total--;
    };
  }

  /** Forgets the peaks (the live figures stay: those bodies are still streaming). */
  resetPeaks(): void {
    this.peak = new Map(this.live);
    this.peakTotal = this.total;
  }

  view(): { live: Record<string, number>; peak: Record<string, number>; live_total: number; peak_total: number } {
    return { live: Object.fromEntries(this.live), peak: Object.fromEntries(this.peak), live_total: this.total, peak_total: this.peakTotal };
  }
}
