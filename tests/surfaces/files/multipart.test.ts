import { describe, expect, test } from "bun:test";
import { readFileSync, existsSync } from "node:fs";
import { spoolMultipart } from "../../../src/surfaces/files/multipart";
import { onePerUnit, randomSplits } from "../../helpers/chunking";

async function body(form: FormData): Promise<{ bytes: Uint8Array; type: string }> {
  const r = new Response(form);
  const type = r.headers.get("content-type")!;
  return { bytes: new Uint8Array(await r.arrayBuffer()), type };
}

const stream = (chunks: Uint8Array[]) =>
  new ReadableStream<Uint8Array>({
    start(c) {
      for (const ch of chunks) c.enqueue(ch);
      c.close();
    },
  });

describe("streaming multipart reader (POST /v1/files)", () => {
  const content = new Uint8Array(50_000).map((_, i) => (i * 7) % 251);
  test.each([
    ["whole", (b: Uint8Array) => [b]],
    ["one byte at a time", (b: Uint8Array) => onePerUnit(b)],
    ["random splits", (b: Uint8Array) => randomSplits(b, 11, 97)],
  ])("the file part is spooled to disk byte-exact and the fields are read — %s", async (_n, split) => {
    const form = new FormData();
    form.append("purpose", "assistants");
    form.append("file", new File([content], "data.bin", { type: "application/x-test" }));
    form.append("model", "core-v4-vision");
    const { bytes, type } = await body(form);
    const up = await spoolMultipart(stream(split(bytes)), type, 1_000_000);
    expect(up.fields).toEqual({ purpose: "assistants", model: "core-v4-vision" });
    expect(up.filename).toBe("data.bin");
    expect(up.mime).toBe("application/x-test");
    expect(up.size).toBe(content.length);
    expect(new Uint8Array(readFileSync(up.path))).toEqual(content);
    await up.cleanup();
    expect(existsSync(up.path)).toBe(false);
  });

  test("a body over the limit is 413 while reading, and nothing is left on disk", async () => {
    const form = new FormData();
    form.append("file", new File([new Uint8Array(10_000)], "big.bin"));
    const { bytes, type } = await body(form);
    const err = await spoolMultipart(stream(randomSplits(bytes, 2, 500)), type, 5_000).catch((e) => e);
    expect(err.status).toBe(413);
  });

  test("no file part → 400 missing_file", async () => {
    const form = new FormData();
    form.append("purpose", "x");
    const { bytes, type } = await body(form);
    const err = await spoolMultipart(stream([bytes]), type, 1_000_000).catch((e) => e);
    expect(err.code).toBe("missing_file");
  });
});
