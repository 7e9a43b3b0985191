// The JSON line format (D3.6): the same text a spread-and-stringify would give, built without the copy.
import { describe, expect, test } from "bun:test";
import { createLogger, formatLine } from "../../src/util/log";

const spread = (line: string, level: string, msg: string, fields?: Record<string, unknown>) =>
  JSON.stringify({ ts: (JSON.parse(line) as { ts: string }).ts, level, msg, ...fields });

describe("log lines", () => {
  test.each([
    ["no fields", undefined],
    ["empty fields", {}],
    ["the access line's kinds of values", { request_id: "req_1", status: 200, ttfb_ms: null, stream: false, path: '/v1/x?q="quoted"\\n', skipped: undefined }],
    ["nested values and unicode", { error: { code: "x", list: [1, "二"] }, note: "line\nbreak" }],
    ["a field named like a fixed key", { msg: "overridden", level: "shadow", extra: 1 }],
  ] as [string, Record<string, unknown> | undefined][])("%s: same line as the spread form", (_name, fields) => {
    const line = formatLine("info", 'a "message"', fields);
    expect(line).toBe(spread(line, "info", 'a "message"', fields));
    expect(() => JSON.parse(line)).not.toThrow();
  });

  test("ts is ISO 8601 and current; lines below the level are not written", () => {
    const lines: string[] = [];
    const log = createLogger("warn", (l) => lines.push(l));
    log.info("dropped", { a: 1 });
    const before = Date.now();
    log.warn("kept", { a: 1 });
    expect(lines).toHaveLength(1);
    const parsed = JSON.parse(lines[0]!) as { ts: string; level: string; msg: string; a: number };
    expect(parsed).toMatchObject({ level: "warn", msg: "kept", a: 1 });
    expect(parsed.ts).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(Math.abs(Date.parse(parsed.ts) - before)).toBeLessThan(1000);
  });
});
