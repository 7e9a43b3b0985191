// The socket-level client's framing (src/core/http1/framing.ts): a response head and a chunked body, fed in
// hostile splits — whole, one byte at a time, seeded random pieces — must decode to the same bytes.
import { describe, expect, test } from "bun:test";
import { ChunkedDecoder, FramingError, HeadReader, parseHead } from "../../src/core/http1/framing";
import { onePerUnit, randomSplits } from "../helpers/chunking";
import { loadVectors } from "../helpers/vectors";

const enc = new TextEncoder();
const cases = loadVectors<{ cases: { id: string; body_lines: string[] }[] }>("sse-stream-collect.json").cases;
const bodies = [...cases.map((c) => enc.encode(c.body_lines.join("\n") + "\n\n")), enc.encode('data: {"v":"orld，世界 😀"}\n\n'.repeat(50))];

/** A chunked encoding of `body` in chunks of the given sizes, with an extension and a trailer to skip. */
function chunked(body: Uint8Array, sizes: number[]): Uint8Array {
  const parts: Uint8Array[] = [];
  let i = 0;
  let k = 0;
  while (i < body.length) {
    const n = Math.min(sizes[k++ % sizes.length]!, body.length - i);
    parts.push(enc.encode(`${n.toString(16)}${k % 3 === 0 ? ";ext=1" : ""}\r\n`), body.subarray(i, i + n), enc.encode("\r\n"));
    i += n;
  }
  parts.push(enc.encode("0\r\nx-trailer: 1\r\n\r\n"));
  return Buffer.concat(parts);
}

function decodeAll(wire: Uint8Array, pieces: Uint8Array[]): { out: Uint8Array; done: boolean; rest: number } {
  const d = new ChunkedDecoder();
  const out: Uint8Array[] = [];
  let rest = 0;
  for (const p of pieces) {
    for (const x of d.push(p)) out.push(x.slice());
    if (d.done) {
      rest = d.rest;
      break;
    }
  }
  return { out: Buffer.concat(out), done: d.done, rest };
}

describe("chunked body", () => {
  test.each(bodies.map((b, i) => [i, b] as const))("capture body %i decodes the same whole, per byte and in random splits", (_i, body) => {
    const wire = chunked(body, [1, 7, 300, 2]);
    const splits = [[wire], onePerUnit(wire), ...[1, 2, 3, 4, 5].map((s) => randomSplits(wire, s))];
    for (const pieces of splits) {
      const r = decodeAll(wire, pieces);
      expect(r.done).toBe(true);
      expect(Buffer.from(r.out).equals(Buffer.from(body))).toBe(true);
    }
  });

  test("bytes after the last chunk are counted in `rest`, not returned as data", () => {
    const wire = Buffer.concat([chunked(enc.encode("hello"), [5]), enc.encode("HTTP/1.1 200")]);
    const r = decodeAll(wire, [wire]);
    expect(new TextDecoder().decode(r.out)).toBe("hello");
    expect(r.rest).toBe(12);
  });

  test.each([
    ["a size that is not hex", "zz\r\nabc\r\n"],
    ["data longer than its size", "2\r\nabc\r\n"],
    ["a size line without its line feed", "3\rxabc"],
  ])("%s is a FramingError", (_n, wire) => {
    expect(() => new ChunkedDecoder().push(enc.encode(wire))).toThrow(FramingError);
  });
});

describe("response head", () => {
  const head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nX-Two: a\r\nX-Two: b\r\nConnection: keep-alive\r\n\r\n";
  test("found across any split, with the index of the body's first byte", () => {
    const wire = enc.encode(head + "data: x");
    for (const pieces of [[wire], onePerUnit(wire), randomSplits(wire, 9, 5)]) {
      const r = new HeadReader();
      let at = -1;
      let offset = 0;
      for (const p of pieces) {
        at = r.push(p);
        if (at >= 0) {
          offset += at;
          break;
        }
        offset += p.length;
      }
      expect(offset).toBe(head.length);
      const h = r.take();
      expect(h.status).toBe(200);
      expect(h.headers).toEqual([
        ["Content-Type", "text/event-stream"],
        ["X-Two", "a"],
        ["X-Two", "b"],
        ["Connection", "keep-alive"],
      ]);
      expect(h.close).toBe(false);
    }
  });

  test("HTTP/1.0 closes unless it says keep-alive; Connection: close closes", () => {
    expect(parseHead("HTTP/1.0 200 OK\r\n\r\n").close).toBe(true);
    expect(parseHead("HTTP/1.0 200 OK\r\nConnection: keep-alive\r\n\r\n").close).toBe(false);
    expect(parseHead("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n").close).toBe(true);
    expect(parseHead("HTTP/1.1 204\r\n\r\n")).toMatchObject({ status: 204, statusText: "" });
  });

  test("not HTTP, a malformed header line, an endless head: FramingError", () => {
    expect(() => parseHead("SSH-2.0-OpenSSH\r\n\r\n")).toThrow(FramingError);
    expect(() => parseHead("HTTP/1.1 200 OK\r\nno colon\r\n\r\n")).toThrow(FramingError);
    const r = new HeadReader();
    expect(() => {
      for (let i = 0; i < 100; i++) r.push(enc.encode("X-Long: " + "a".repeat(1000) + "\r\n"));
    }).toThrow(FramingError);
  });
});
