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
 * The default sink: each line written to fd 1 with `writeSync` before `log.*` returns, so lines keep their order
 * and none is left in a buffer when the process exits. Not through `process.stdout`: its first use loads Node's
 * stream classes (3–5 ms in the compiled gateway, 17–20 ms in a bare binary), paid at every start by the
 * "listening" line at the default level (issue 35); and on a non-blocking pipe (as Bun.spawn and some supervisors
 * hand over) it queues what the pipe does not take and loses it at `process.exit` (354 of 401 lines in
 * tests/util/log-sink.test.ts). A full pipe (EAGAIN) is waited for, a millisecond at a time, as a blocking stdout
 * would be, for up to STALL_MS per line; past that, or on another error (EPIPE, EBADF), the line's unwritten rest
 * and every later line go to `process.stdout` as before, so nothing is written to fd 1 behind its queue.
 */
const STALL_MS = 2_000;

export function stdoutWriter(fd = 1, fallback: (chunk: string | Uint8Array) => void = (c) => void process.stdout.write(c)): (text: string) => void {
  let direct = true;
  return (text) => {
    if (!direct) return fallback(text);
    // The whole line in one call, without copying it into a buffer first (nearly always all of it is taken);
    // a partial write or an error goes on below from where it stopped.
    let off = 0;
    try {
      off = writeSync(fd, text);
    } catch {
      // EAGAIN and the rest: handled, with the bytes at hand, below.
    }
    if (off === Buffer.byteLength(text)) return;
    const bytes = Buffer.from(text);
    let stalledSince = 0;
    while (off < bytes.length) {
      try {
        off += writeSync(fd, bytes, off);
      } catch (e) {
        const now = performance.now();
        if ((e as { code?: string }).code === "EAGAIN" && (stalledSince ||= now) > now - STALL_MS) {
          Bun.sleepSync(1);
          continue;
        }
        direct = false;
        fallback(bytes.subarray(off));
        return;
      }
    }
  };
}

let shared: ((text: string) => void) | undefined;
/** Text for stdout outside the log lines (the demo banner): the same writer, so it keeps its place among them. */
export function writeStdout(text: string): void {
  (shared ??= stdoutWriter())(text);
}

export function createLogger(level: LogLevel, sink: (line: string) => void = (l) => writeStdout(l + "\n")): Logger {
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
