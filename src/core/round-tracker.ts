// The cheap end-of-round tracker (core-upstream §7.9, continue.json `decision_rule`): decides from decoded frames,
// without the reducer, how a round ended and whether it must be continued, and with which message id. The
// core client runs it over every raw round; it must agree with the reducer on real streams.
import { frameJson, type SseFrame } from "./sse";

export type RoundOutcome = "finished" | "content_filter" | "continue" | "truncated";

export const DEFAULT_MAX_CONTINUE_ROUNDS = 8;

export interface RoundDecision {
  outcome: RoundOutcome;
  responseMessageId: number;
}

const STATUS_PATHS = new Set(["response/status", "status", "response/quasi_status", "quasi_status"]);
const AUTO_CONTINUE_PATHS = new Set(["response/auto_continue", "auto_continue"]);

/** A path without leading or trailing slashes; most of core's have none, and are returned as they are. */
const trimSlashes = (p: string) => (p.charCodeAt(0) === 47 || p.charCodeAt(p.length - 1) === 47 ? p.replace(/^\/+|\/+$/g, "") : p);

export class RoundTracker {
  /** Per round: the last status seen (AUTO_CONTINUE is a pseudo status). */
  lastStatus = "";
  /** Per round: a FINISHED or CONTENT_FILTER status was seen. */
  finished = false;
  /** Which terminal status came last (a filter after quasi FINISHED wins). */
  private terminal: "finished" | "content_filter" | null = null;
  /** Across rounds. */
  responseMessageId = 0;

  /** A new round starts: status and finished reset, the message id is kept. */
  nextRound(): void {
    this.lastStatus = "";
    this.finished = false;
    this.terminal = null;
  }

  observe(frame: SseFrame): void {
    // Every data JSON counts, whatever the event name (the id of `ready` is the usual source).
    if (frame.comment || !frame.data) return;
    const o = frameJson(frame);
    if (!o) return;
    // A plain token (`{"v": "…"}`, nearly every frame) holds nothing looked for below: no path, no id, no code.
    if (typeof o.v === "string" && o.p === undefined && o.response_message_id === undefined && o.code === undefined && o.message === undefined) return;
    if (typeof o.response_message_id === "number" && o.response_message_id > 0) this.responseMessageId = o.response_message_id;
    // A filter verdict without a status (core-upstream §7.11, §7.13) is terminal too.
    if (typeof o.code === "string" && o.code.toLowerCase() === "content_filter") this.setStatus("CONTENT_FILTER");
    const p = typeof o.p === "string" ? trimSlashes(o.p) : "";
    this.path(p, o.v);
    if (Array.isArray(o.v)) {
      for (const el of o.v) {
        if (!el || typeof el !== "object") continue;
        const e = el as Record<string, unknown>;
        let ep = typeof e.p === "string" ? trimSlashes(e.p) : "";
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
    if (STATUS_PATHS.has(p) && typeof v === "string") this.setStatus(v);
    else if (AUTO_CONTINUE_PATHS.has(p) && v === true) this.lastStatus = "AUTO_CONTINUE";
  }

  private setStatus(s: string): void {
    this.lastStatus = s;
    const u = s.toUpperCase();
    if (u === "FINISHED") {
      this.finished = true;
      this.terminal = "finished";
    } else if (u === "CONTENT_FILTER") {
      this.finished = true;
      this.terminal = "content_filter";
    }
  }

  /**
   * The round's outcome at EOF. `continue` needs: no terminal status, a status INCOMPLETE / AUTO_CONTINUE,
   * a response message id > 0, a known session and rounds left; otherwise such a round is `truncated`.
   */
  outcome(roundsSoFar = 0, maxRounds = DEFAULT_MAX_CONTINUE_ROUNDS, sessionKnown = true): RoundDecision {
    const responseMessageId = this.responseMessageId;
    if (this.finished) return { outcome: this.terminal ?? "finished", responseMessageId };
    return { outcome: this.shouldContinue(roundsSoFar, maxRounds, sessionKnown) ? "continue" : "truncated", responseMessageId };
  }

  shouldContinue(roundsSoFar: number, maxRounds: number = DEFAULT_MAX_CONTINUE_ROUNDS, sessionKnown = true): boolean {
    const s = this.lastStatus.toUpperCase();
    return !this.finished && sessionKnown && this.responseMessageId > 0 && (s === "INCOMPLETE" || s === "AUTO_CONTINUE") && roundsSoFar < maxRounds;
  }
}
