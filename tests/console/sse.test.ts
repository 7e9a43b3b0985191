// The console's SSE reader (src/console/ui/sse.ts) on hostile chunkings: one byte at a time, split UTF-8, CRLF,
// keep-alive comments and multi-line data; [DONE] ends it.
import { describe, expect, test } from "bun:test";
import { sseData } from "../../src/console/ui/sse";
import { randomSplits } from "../helpers/chunking";

function body(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(c) {
      for (const x of chunks) c.enqueue(x);
      c.close();
    },
  });
}

async function read(chunks: Uint8Array[]): Promise<unknown[]> {
  const out: unknown[] = [];
  for await (const x of sseData(body(chunks))) out.push(x);
  return out;
}

const TEXT = ': keep-alive\n\ndata: {"a":"héllo 😀"}\r\n\r\nevent: x\ndata: {"b":\ndata: 2}\n\n: ping\n\ndata: [DONE]\n\ndata: {"after":"done"}\n\n';
const EXPECTED = [{ a: "héllo 😀" }, { b: 2 }];

describe("console SSE reader", () => {
  const bytes = new TextEncoder().encode(TEXT);
  test("whole", async () => expect(await read([bytes])).toEqual(EXPECTED));
  test("one byte at a time (split UTF-8 included)", async () => expect(await read(Array.from(bytes, (b) => new Uint8Array([b])))).toEqual(EXPECTED));
  test("random splits", async () => {
    for (const seed of [1, 7, 23]) expect(await read(randomSplits(bytes, seed, 5))).toEqual(EXPECTED);
  });
  test("a last event without its blank line still counts", async () => {
    expect(await read([new TextEncoder().encode('data: {"x":1}')])).toEqual([{ x: 1 }]);
  });
});
