// Log lines that would repeat once per request while a dependency is down (issue 30, item 6: ≈ 1,700 warn lines
// for ≈ 1,000 requests in 8 s of a Redis outage). One line per kind per window; the lines held back meanwhile
// are counted and reported as `suppressed` on the next line of that kind, so nothing is hidden, only folded.
import type { Logger, LogLevel } from "./log";

export const DEFAULT_WINDOW_MS = 10_000;

interface Slot {
  /** When the last line of this kind was written. */
  at: number;
  suppressed: number;
}

export class RateLimitedLog {
  private readonly slots = new Map<string, Slot>();
  private readonly windowMs: number;
  private readonly now: () => number;

  constructor(
    private readonly log: Logger,
    opts: { windowMs?: number; now?: () => number } = {},
  ) {
    this.windowMs = opts.windowMs ?? DEFAULT_WINDOW_MS;
    this.now = opts.now ?? Date.now;
  }

  /** Writes the line unless one of the same kind (the message, unless given) was written within the window. */
  write(level: LogLevel, msg: string, fields: Record<string, unknown> = {}, kind = msg): boolean {
    const now = this.now();
    const slot = this.slots.get(kind);
    if (slot && now - slot.at < this.windowMs) {
      slot.suppressed++;
      return false;
    }
    this.log.log(level, msg, slot?.suppressed ? { ...fields, suppressed: slot.suppressed } : fields);
    this.slots.set(kind, { at: now, suppressed: 0 });
    return true;
  }

  warn(msg: string, fields?: Record<string, unknown>, kind?: string): boolean {
    return this.write("warn", msg, fields, kind);
  }

  error(msg: string, fields?: Record<string, unknown>, kind?: string): boolean {
    return this.write("error", msg, fields, kind);
  }
}

/**
 * A Logger whose warn and error lines go through a RateLimitedLog (kind = message); info and debug pass as
 * they are. For code that logs once per failed call while a dependency is down (the Redis-backed stores).
 */
export function rateLimitedLogger(log: Logger, opts: { windowMs?: number; now?: () => number } = {}): Logger {
  const limited = new RateLimitedLog(log, opts);
  const wrapped: Logger = {
    get level() {
      return log.level;
    },
    set level(l) {
      log.level = l;
    },
    log(level, msg, fields) {
      if (level === "warn" || level === "error") limited.write(level, msg, fields);
      else log.log(level, msg, fields);
    },
    debug: (m, f) => wrapped.log("debug", m, f),
    info: (m, f) => wrapped.log("info", m, f),
    warn: (m, f) => wrapped.log("warn", m, f),
    error: (m, f) => wrapped.log("error", m, f),
  };
  return wrapped;
}
