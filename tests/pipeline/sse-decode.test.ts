// sseDecode (core-upstream §7.1): chunk boundaries, line ends, comments, multi-line data, long lines,
// bare JSON envelopes, linear time.
import { describe, expect, test } from "bun:test";
import { onePerUnit, randomSplits, runTransform } from "../helpers/chunking";
import { SseDecoder } from "../../src/core/sse";
import { sseDecode } from "../helpers/text-stages";
import { LineSplitter } from "../../src/core/line-splitter";
import type { SseFrame } from "../../src/core/sse";

const enc = new TextEncoder();

function decodeWith(chunks: (Uint8Array | string)[]): SseFrame[] {
  const d = new SseDecoder();
  const out: SseFrame[] = [];
  for (const c of chunks) out.push(...d.push(c));
  out.push(...d.end());
  return out;
}

const SAMPLE =
  'event: ready\ndata: {"request_message_id":1,"response_message_id":2}\n\n' +
  ": \n\n" +
  'data: {"v":"你好 🌍 ok"}\n\n' +
  'data: {"p":"response/fragments/-1/content","o":"APPEND","v":"\\n# x"}\n\n' +
  "event: title\ndata: {\"content\":\"t\"}\n\n";

const SAMPLE_FRAMES: SseFrame[] = [
  { event: "ready", data: '{"request_message_id":1,"response_message_id":2}' },
  { event: "comment", data: "", comment: true },
  // A plain token's value is read while the decoder has its characters at hand (issue 17), for every chunking.
  { event: "message", data: '{"v":"你好 🌍 ok"}', json: { v: "你好 🌍 ok" } },
  { event: "message", data: '{"p":"response/fragments/-1/content","o":"APPEND","v":"\\n# x"}' },
  { event: "title", data: '{"content":"t"}' },
];

describe("sseDecode framing", () => {
  test("frames are the same for every chunking: whole, one byte (splits UTF-8 sequences), random splits", async () => {
    const bytes = enc.encode(SAMPLE);
    expect(await runTransform(sseDecode(), [bytes])).toEqual(SAMPLE_FRAMES);
    expect(await runTransform(sseDecode(), onePerUnit(bytes))).toEqual(SAMPLE_FRAMES);
    for (const seed of [1, 2, 3, 99]) expect(await runTransform(sseDecode(), randomSplits(bytes, seed, 11))).toEqual(SAMPLE_FRAMES);
  });

  test("CRLF and CR line ends give the same frames as LF, also with the CR and LF in different chunks", () => {
    for (const eol of ["\r\n", "\r"]) {
      const bytes = enc.encode(SAMPLE.replaceAll("\n", eol));
      expect(decodeWith([bytes])).toEqual(SAMPLE_FRAMES);
      expect(decodeWith(onePerUnit(bytes))).toEqual(SAMPLE_FRAMES);
    }
  });

  test("a comment block is a keep-alive frame; a comment inside an event block is ignored", () => {
    expect(decodeWith([": \n\n:keep\n\n"])).toEqual([
      { event: "comment", data: "", comment: true },
      { event: "comment", data: "", comment: true },
    ]);
    expect(decodeWith(['data: {"v":1}\n: note\n\n'])).toEqual([{ event: "message", data: '{"v":1}' }]);
  });

  test("multi-line data is joined with a newline; no space after the colon is fine; one leading space is removed", () => {
    expect(decodeWith(["data: a\ndata:b\ndata:  c\n\n"])).toEqual([{ event: "message", data: "a\nb\n c" }]);
  });

  test("a last block without its blank line still counts at EOF; unknown fields are ignored", () => {
    expect(decodeWith(['id: 7\nretry: 10\ndata: {"v":"x"}'])).toEqual([{ event: "message", data: '{"v":"x"}', json: { v: "x" } }]);
  });

  test("a bare JSON envelope before the first event is surfaced as a raw frame", () => {
    const body = '{"code":0,"msg":"","data":{"biz_code":9,"biz_msg":"invalid ref file id","biz_data":null}}';
    expect(decodeWith(onePerUnit(enc.encode(body)))).toEqual([{ event: "raw", data: body }]);
    expect(decodeWith(['{"msg":"有消息正在生成，请稍后再试"}\n'])).toEqual([{ event: "raw", data: '{"msg":"有消息正在生成，请稍后再试"}' }]);
  });

  test("a UTF-8 sequence split at the very end of the input is decoded at EOF", () => {
    const bytes = enc.encode('data: {"v":"é"}');
    expect(decodeWith([bytes.slice(0, bytes.length - 3), bytes.slice(bytes.length - 3, bytes.length - 2), bytes.slice(bytes.length - 2)])).toEqual([
      { event: "message", data: '{"v":"é"}', json: { v: "é" } },
    ]);
  });
});

describe("sseDecode long lines and linear time", () => {
  test("a data line over 2 MiB in random chunks of up to 4 KiB (multi-byte characters split)", async () => {
    const big = "你".repeat(800_000); // 2.4 MB of UTF-8
    const bytes = enc.encode(`data: ${JSON.stringify({ v: big })}\n\n`);
    expect(bytes.length).toBeGreaterThan(2 * 1024 * 1024);
    const frames = await runTransform(sseDecode(), randomSplits(bytes, 5, 4096));
    expect(frames).toHaveLength(1);
    expect(JSON.parse(frames[0]!.data).v).toBe(big);
  });

  test("a 2.2 MiB line fed one byte at a time is decoded in linear time", () => {
    const big = "x".repeat(2.2 * 1024 * 1024);
    const bytes = enc.encode(`data: {"v":"${big}"}\r\n\r\n`);
    const d = new SseDecoder();
    const out: SseFrame[] = [];
    const t0 = performance.now();
    for (let i = 0; i < bytes.length; i++) out.push(...d.push(bytes.subarray(i, i + 1)));
    out.push(...d.end());
    const ms = performance.now() - t0;
    expect(out).toHaveLength(1);
    expect(JSON.parse(out[0]!.data).v).toBe(big);
    // Quadratic re-scanning of 2.3 M bytes would take minutes; linear takes well under this bound.
    expect(ms).toBeLessThan(20_000);
  });

  test("many short lines in one chunk with no CR are split in linear time", () => {
    const lines = 200_000;
    const s = "data: {}\n\n".repeat(lines);
    const t0 = performance.now();
    const frames = new SseDecoder().push(s);
    expect(frames).toHaveLength(lines);
    expect(performance.now() - t0).toBeLessThan(5_000);
  });
});

describe("LineSplitter", () => {
  test("LF, CRLF, CR and CRLF split across pushes each end exactly one line", () => {
    const got: string[] = [];
    const ls = new LineSplitter();
    const take = { line: (s: string, a: number, b: number) => void got.push(s.slice(a, b)) };
    for (const piece of ["a\r", "\nb\r", "c\n", "\r\n", "d"]) ls.push(piece, take);
    ls.end(take);
    expect(got).toEqual(["a", "b", "c", "", "d"]);
  });
});
