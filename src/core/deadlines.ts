// The deadlines of ordinary calls to core (login, session, PoW challenge, …) without a timer per call (issue 35,
// CPU per request): calls with the same timeout end in the order they began, so each timeout keeps one queue in
// deadline order and one timer for its head. A call that ends marks its entry done (and the done entries at the
// head go at once, so the queue holds about the calls in flight); the timer, when it fires, expires what is due
// and re-arms for the next live entry — under steady load about once per timeout, not twice per request.

/** What a deadline ends: the call's connection or its fetch's controller. */
export interface Expiring {
  expire(): void;
}

export interface Deadline {
  readonly at: number;
  target: Expiring | null;
}

class Queue {
  private entries: Deadline[] = [];
  private head = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** Done entries behind a live head wait for it; past this many entries the queue keeps only the live ones. */
  private compactAt = 4096;

  constructor(private readonly ms: number) {}

  add(target: Expiring): Deadline {
    const d: Deadline = { at: performance.now() + this.ms, target };
    if (this.entries.length >= this.compactAt) {
      // A call that hangs at the head would otherwise keep every later, finished entry until it expires.
      this.entries = this.entries.slice(this.head).filter((x) => x.target !== null);
      this.head = 0;
      this.compactAt = Math.max(4096, this.entries.length * 2);
    }
    this.entries.push(d);
    if (this.timer === undefined) this.arm(d.at);
    return d;
  }

  /** Drops the done entries at the head (and compacts the array once half of it is dropped ones). */
  trim(): void {
    const e = this.entries;
    while (this.head < e.length && e[this.head]!.target === null) this.head++;
    if (this.head === e.length) {
      e.length = 0;
      this.head = 0;
    } else if (this.head >= 64 && this.head * 2 >= e.length) {
      e.splice(0, this.head);
      this.head = 0;
    }
  }

  private arm(at: number): void {
    this.timer = setTimeout(() => this.fire(), Math.max(0, at - performance.now()));
    // A pending call keeps the process alive by its socket; this timer must not do so by itself.
    this.timer.unref?.();
  }

  private fire(): void {
    this.timer = undefined;
    // Timers may fire a hair early; a millisecond is no difference to a timeout.
    const now = performance.now() + 1;
    const e = this.entries;
    while (this.head < e.length) {
      const d = e[this.head]!;
      if (d.target !== null && d.at > now) break;
      this.head++;
      const t = d.target;
      d.target = null;
      t?.expire();
    }
    this.trim();
    if (this.head < e.length && this.timer === undefined) this.arm(e[this.head]!.at);
  }
}

const queues = new Map<number, Queue>();

/** `target.expire()` after `ms` unless `clearDeadline` comes first. */
export function addDeadline(ms: number, target: Expiring): Deadline {
  let q = queues.get(ms);
  if (!q) queues.set(ms, (q = new Queue(ms)));
  return q.add(target);
}

/** The call ended in time: its deadline is dropped. */
export function clearDeadline(ms: number, d: Deadline): void {
  if (d.target === null) return;
  d.target = null;
  queues.get(ms)?.trim();
}
