// fuse(): several synchronous stages as one TransformStream give exactly what the same stages give as a chain of
// TransformStreams — order of start output, per-chunk output, output released at flush and output a stage
// sends later from a timer — and errors reach the reader.
import { describe, expect, test } from "bun:test";
import { fuse, type SyncTransformer } from "../../src/pipeline/fuse";
import { stageStream } from "../helpers/stages";
import { runTransform } from "../helpers/chunking";

/** Opens with a header, tags each chunk, holds every third one back until flush. */
const tagger = (name: string): SyncTransformer<string, string> => {
  const held: string[] = [];
  let n = 0;
  return {
    start(c) {
      c.enqueue(`${name}:open`);
    },
    transform(chunk, c) {
      if (++n % 3 === 0) held.push(chunk);
      else c.enqueue(`${name}(${chunk})`);
    },
    flush(c) {
      for (const h of held) c.enqueue(`${name}[${h}]`);
      c.enqueue(`${name}:close`);
    },
  };
};

const chained = (stages: SyncTransformer<string, string>[]): TransformStream<string, string> => {
  const streams = stages.map(stageStream);
  let readable = streams[0]!.readable;
  for (const s of streams.slice(1)) readable = readable.pipeThrough(s);
  return { writable: streams[0]!.writable, readable } as TransformStream<string, string>;
};

/** Writes the chunks and reads everything; rejects with the stream's error (writer failures are expected then). */
async function drain(ts: TransformStream<string, string>, chunks: string[]): Promise<string[]> {
  const writer = ts.writable.getWriter();
  void (async () => {
    for (const c of chunks) await writer.write(c);
    await writer.close();
  })().catch(() => {});
  const out: string[] = [];
  const reader = ts.readable.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return out;
    out.push(value);
  }
}

describe("fuse", () => {
  const input = Array.from({ length: 10 }, (_, i) => `c${i}`);

  test("three stages fused emit what the same three stages emit as a chain", async () => {
    const fused = await runTransform(fuse<string, string>(tagger("a"), tagger("b"), tagger("c")), input);
    const chain = await runTransform(chained([tagger("a"), tagger("b"), tagger("c")]), input);
    expect(fused).toEqual(chain);
    // The last stage's opening frame comes first; a stage's flush output went through the later stages.
    expect(fused[0]).toBe("c:open");
    expect(fused.at(-1)).toBe("c:close");
    expect(fused.filter((x) => x.includes("a:close"))).toEqual(["c(b[a:close])"]);
  });

  test("one stage, and no stage, behave as the stage itself and as an identity", async () => {
    expect(await runTransform(fuse<string, string>(tagger("x")), input)).toEqual(await runTransform(stageStream(tagger("x")), input));
    expect(await runTransform(fuse<string, string>(), input)).toEqual(input);
  });

  test("a stage that enqueues later (a timer) feeds the later stages then", async () => {
    let later: (() => void) | undefined;
    const delayed: SyncTransformer<string, string> = {
      transform(chunk, c) {
        later = () => c.enqueue(`late ${chunk}`);
      },
    };
    const ts = fuse<string, string>(delayed, tagger("r"));
    const writer = ts.writable.getWriter();
    const reader = ts.readable.getReader();
    expect((await reader.read()).value).toBe("r:open");
    // A read is pending (as when a client waits), so the stream hands the chunk to the stages.
    const next = reader.read();
    void writer.write("x");
    while (!later) await Bun.sleep(1);
    later();
    expect((await next).value).toBe("r(late x)");
    await writer.close();
    expect((await reader.read()).value).toBe("r:close");
  });

  test("an error raised by a stage reaches the reader", async () => {
    const failing: SyncTransformer<string, string> = {
      transform(chunk, c) {
        if (chunk.includes("c3")) c.error(new Error("stage failed"));
        else c.enqueue(chunk);
      },
    };
    await expect(drain(fuse<string, string>(tagger("a"), failing), input)).rejects.toThrow("stage failed");
    const throwing: SyncTransformer<string, string> = {
      transform(chunk) {
        if (chunk === "c2") throw new Error("thrown");
      },
    };
    await expect(drain(fuse<string, string>(throwing), input)).rejects.toThrow("thrown");
  });
});
