// Synchronous JSON lines on stdout (D3.6). Callers pass fields that never hold a secret:
// credentials are logged only as fingerprints, paths are redacted by redactPath.
import { writeSync } from "node:fs";

export type LogLevel = "debug" | "info" | "warn" | "error";
const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export interface Logger {
  level: LogLevel;
  log(level: LogLevel, msg: string, fields?: Record<string, unknown>): void;
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

/** Whether a line at `level` would be written: callers building a large line ask first. */
export function logs(logger: Logger, level: LogLevel): boolean {
  return ORDER[level] >= ORDER[logger.level];
}

export function parseLogLevel(raw: string | undefined): { level: LogLevel; warning?: string } {
  if (!raw) return { level: "info" };
  const v = raw.trim().toLowerCase();
  if (v in ORDER) return { level: v as LogLevel };
  return { level: "info", warning: `unknown LOG_LEVEL ${JSON.stringify(raw)}; using info` };
}

let isoMs = -1;
let iso = "";

/** The current time as ISO 8601; computed once per millisecond (every request writes a line). */
function isoNow(): string {
  const now = Date.now();
  if (now !== isoMs) {
    isoMs = now;
    iso = new Date(now).toISOString();
  }
  return iso;
}

/**
 * One JSON line: ts, level, msg, then the fields. Written as text around JSON.stringify(fields) rather than
 * stringifying a spread copy (the access line has 21 fields); a field named like one of the three keeps the
 * copy, so the line has each key once, as before.
 */
export function formatLine(level: LogLevel, msg: string, fields?: Record<string, unknown>): string {
  if (fields && ("ts" in fields || "level" in fields || "msg" in fields)) return JSON.stringify({ ts: isoNow(), level, msg, ...fields });
  const head = `{"ts":"${isoNow()}","level":"${level}","msg":${JSON.stringify(msg)}`;
  const rest = fields === undefined ? "{}" : JSON.stringify(fields);
  return rest.length > 2 ? `${head},${rest.slice(1)}` : `${head}}`;
}

/**
 * The default sink: each line written to fd 1 at once with `writeSync`, so lines keep their order and none is left
 * in a buffer when the process exits, as with `process.stdout.write` (synchronous for files and pipes). Not through
 * `process.stdout`: its first use loads Node's stream classes (3–5 ms in the compiled gateway, 17–20 ms in a bare binary), paid at every
 * start by the "listening" line at the default level (issue 35). A write that fails (EAGAIN on a non-blocking
 * stdout, EPIPE, ...) hands that line's rest and every later line to `process.stdout`, which handles those cases
 * as before; the lines stay in order because nothing is written to fd 1 behind `process.stdout`'s back after that.
 */
export function stdoutSink(fd = 1, fallback: (chunk: string | Uint8Array) => void = (c) => void process.stdout.write(c)): (line: string) => void {
  let direct = true;
  return (line) => {
    if (!direct) return fallback(line + "\n");
    const bytes = Buffer.from(line + "\n");
    let off = 0;
    try {
      while (off < bytes.length) off += writeSync(fd, bytes, off);
    } catch {
      direct = false;
      fallback(bytes.subarray(off));
    }
  };
}

export function createLogger(level: LogLevel, sink: (line: string) => void = stdoutSink()): Logger {
  const logger: Logger = {
    level,
    log(lvl, msg, fields) {
      if (ORDER[lvl] < ORDER[logger.level]) return;
      sink(formatLine(lvl, msg, fields));
    },
    debug: (m, f) => logger.log("debug", m, f),
    info: (m, f) => logger.log("info", m, f),
    warn: (m, f) => logger.log("warn", m, f),
    error: (m, f) => logger.log("error", m, f),
  };
  return logger;
}

/** Query `key`/`api_key` values and the `{key}` segment of /admin/keys/{key} become *** (D3.6). `search` is "" or starts with "?". */
export function redactPath(pathname: string, search: string): string {
  const path = pathname.startsWith("/admin/keys/") ? pathname.replace(/^(\/admin\/keys\/)[^/]+/, "$1***") : pathname;
  if (search.length <= 1) return path;
  const params = new URLSearchParams(search);
  for (const name of ["key", "api_key"]) if (params.has(name)) params.set(name, "***");
  const q = params.toString();
  return q ? `${path}?${q.replace(/%2A/g, "*")}` : path;
}
