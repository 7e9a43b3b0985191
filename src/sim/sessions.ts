// Chat sessions (core-upstream §5.2–§5.4, §7.14, §12.2): ids, message counters, the message being
// continued, the live flag of a session whose body is still streaming, and deletion — which ends a live
// stream abruptly and is counted (`deleted_while_live`) so the gateway's delete race is visible.
import type { MessageModel } from "./message-model";
import type { RngFamily } from "./rng";
import type { ScenarioScript } from "./types";

export interface SimSession {
  id: string;
  account: string;
  createdAt: number;
  updatedAt: number;
  title: string;
  deleted: boolean;
  /** Response message id of the last turn (0 before the first), for `parent_message_id` and continue. */
  lastResponseId: number;
  messages: number;
  /**
   * The message of the last turn: its scenario, model, how many rounds were played, and the prompt's token
   * estimate for usage (the prompt itself is not kept: an agent's is 50–300 KB, and a session lives on).
   */
  current: { script: ScenarioScript; model: MessageModel; round: number; promptTokens: number; seed: number } | null;
  live: boolean;
  busyUntilMs: number;
  kill: (() => void) | null;
}

/** Sessions kept at most, live ones aside: far more than any client looks back at, or opens at once before using. */
export const MAX_SESSIONS = 10_000;
/** Sessions that keep their last message (its answer, for a continue) at most, live ones aside. */
export const MAX_MESSAGES = 1_000;

export class SessionStore {
  private sessions = new Map<string, SimSession>();
  private created = new Map<string, number>();
  /** Sessions holding a message, least recently given one first. */
  private withMessage = new Map<string, SimSession>();

  constructor(
    private readonly rng: RngFamily,
    private readonly maxKept = MAX_SESSIONS,
    private readonly maxMessages = MAX_MESSAGES,
  ) {}

  /**
   * A session's new message. The message is what a session weighs (the script and the answer, a few KB; an
   * agent's far more): past `maxMessages` the oldest finished sessions let theirs go, and a continue of one is
   * refused like a continue of a message that is not the last.
   */
  setMessage(s: SimSession, message: NonNullable<SimSession["current"]>): void {
    s.current = message;
    this.withMessage.delete(s.id);
    this.withMessage.set(s.id, s);
    if (this.withMessage.size <= this.maxMessages) return;
    for (const [id, old] of this.withMessage) {
      if (this.withMessage.size <= this.maxMessages) return;
      if (old.live) continue;
      old.current = null;
      this.withMessage.delete(id);
    }
  }

  create(account: string, nowS: number): { session: SimSession; nth: number } {
    const nth = this.created.get(account) ?? 0;
    this.created.set(account, nth + 1);
    const s: SimSession = { id: this.rng.next("session").uuid(), account, createdAt: nowS, updatedAt: nowS, title: "New chat", deleted: false, lastResponseId: 0, messages: 0, current: null, live: false, busyUntilMs: 0, kill: null };
    this.sessions.set(s.id, s);
    if (this.sessions.size > this.maxKept) this.forgetOldest();
    return { session: s, nth };
  }

  /**
   * A long run (the demo, a bench) creates a session per request: the oldest sessions whose bodies have ended are
   * forgotten past `maxKept` (docs/simulator.md), as if deleted and purged.
   * Map order is creation order, so this looks only at the front.
   */
  private forgetOldest(): void {
    for (const [id, s] of this.sessions) {
      if (this.sessions.size <= this.maxKept) return;
      if (s.live) continue;
      this.sessions.delete(id);
      this.withMessage.delete(id);
    }
  }

  get(id: unknown): SimSession | undefined {
    return typeof id === "string" ? this.sessions.get(id) : undefined;
  }

  ofAccount(account: string, includeDeleted = false): SimSession[] {
    return [...this.sessions.values()].filter((s) => s.account === account && (includeDeleted || !s.deleted));
  }

  all(): SimSession[] {
    return [...this.sessions.values()];
  }

  /** Deletes sessions; returns how many of them were still streaming (their bodies are killed). */
  delete(list: SimSession[]): number {
    let live = 0;
    for (const s of list) {
      if (s.deleted) continue;
      s.deleted = true;
      if (s.live) {
        live++;
        s.kill?.();
      }
    }
    return live;
  }

  clear(): void {
    this.sessions.clear();
    this.withMessage.clear();
    this.created.clear();
  }
}
