// The cheap end-of-round tracker (core-upstream §7.9, continue.json decision_rule): decides from raw frames,
// without the reducer, whether a round ended INCOMPLETE and must be continued, and with which message id.
import type { SseFrame } from "./types";

export class RoundTracker {
  lastStatus = "";
  finished = false;
  responseMessageId = 0;

  /** A new round starts: status and finished reset, the message id is kept. */
  nextRound(): void {
    this.lastStatus = "";
    this.finished = false;
  }

  observe(frame: SseFrame): void {
    if (frame.comment || !frame.data) return;
    let obj: unknown;
    try {
      obj = JSON.parse(frame.data);
    } catch {
      return;
    }
    if (!obj || typeof obj !== "object" || Array.isArray(obj)) return;
    const o = obj as Record<string, unknown>;
    if (typeof o.response_message_id === "number" && o.response_message_id > 0) this.responseMessageId = o.response_message_id;
    const p = typeof o.p === "string" ? o.p.replace(/^\/+|\/+$/g, "") : "";
    this.path(p, o.v);
    if (Array.isArray(o.v)) {
      for (const el of o.v) {
        if (!el || typeof el !== "object") continue;
        const e = el as Record<string, unknown>;
        let ep = typeof e.p === "string" ? e.p.replace(/^\/+|\/+$/g, "") : "";
        if (p === "response" && ep && !ep.includes("/")) ep = `response/${ep}`;
        this.path(ep, e.v);
      }
    }
    for (const holder of [o.v, o.message]) {
      const resp = holder && typeof holder === "object" && !Array.isArray(holder) ? (holder as Record<string, unknown>).response : undefined;
      if (!resp || typeof resp !== "object") continue;
      const r = resp as Record<string, unknown>;
      if (typeof r.message_id === "number" && r.message_id > 0) this.responseMessageId = r.message_id;
      if (typeof r.status === "string") this.setStatus(r.status);
      if (r.auto_continue === true) this.lastStatus = "AUTO_CONTINUE";
    }
  }

  private path(p: string, v: unknown): void {
    if (["response/status", "status", "response/quasi_status", "quasi_status"].includes(p) && typeof v === "string") this.setStatus(v);
    if ((p === "response/auto_continue" || p === "auto_continue") && v === true) this.lastStatus = "AUTO_CONTINUE";
  }

  private setStatus(s: string): void {
    this.lastStatus = s;
    const u = s.toUpperCase();
    if (u === "FINISHED" || u === "CONTENT_FILTER") this.finished = true;
  }

  shouldContinue(roundsSoFar: number, maxRounds: number): boolean {
    const s = this.lastStatus.toUpperCase();
    return !this.finished && this.responseMessageId > 0 && (s === "INCOMPLETE" || s === "AUTO_CONTINUE") && roundsSoFar < maxRounds;
  }
}
