// Uploads over real sockets: PoW for the upload target, the multipart shape and headers of §5.8, polling of
// §9.2 (PENDING → SUCCESS, instant SUCCESS, FAILED, poll limit), streamed bodies and tolerant reply shapes.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { CoreError } from "../../src/core/errors";
import { fileObjectOf, sanitiseFilename, toCoreFile } from "../../src/core/upload";
import { coreFixture, loginA, type Fixture } from "./core-fixture";

let f: Fixture;
let token: string;
beforeAll(async () => {
  f = await coreFixture();
  token = await loginA(f.client);
});
afterAll(() => f.stop());

const lastUpload = () => f.sim.requests({ path: "/api/v0/file/upload_file" }).at(-1)!;
const content = "héllo wörld — a small text file\n";
const byteLength = new TextEncoder().encode(content).byteLength;

describe("uploadFile", () => {
  test("PENDING → SUCCESS by polling; headers, multipart part and exact x-file-size", async () => {
    const polls = f.sim.state().counters.file_polls;
    const file = await f.client.uploadFile(token, { data: new TextEncoder().encode(content), filename: "dir/notes.txt", mime: "text/plain", modelType: "EXPERT" });
    expect(file.ready).toBe(true);
    expect(file.status.toUpperCase()).toBe("SUCCESS");
    expect(file.id).toStartWith("file-");
    expect(file.bytes).toBe(byteLength);
    expect(file.filename).toBe("notes.txt");
    expect(typeof file.tokenUsage).toBe("number");
    expect(f.sim.state().counters.file_polls - polls).toBe(1);
    const rec = lastUpload();
    expect(rec.pow?.valid).toBe(true);
    expect(rec.body.headers).toEqual({ x_file_size: String(byteLength), x_model_type: "expert", x_thinking_enabled: "1" });
    // Bun's multipart parser on the simulator side normalises text/plain to text/plain;charset=utf-8.
    expect(rec.body.file).toMatchObject({ name: "notes.txt", size: byteLength });
    expect(rec.body.file.type).toStartWith("text/plain");
    expect(rec.body.fields).toEqual({});
    // The uploaded file is usable by the same account.
    const sessionId = await f.client.createSession(token);
    const c = await f.client.completion({ token, sessionId, modelType: "default", prompt: "x", refFileIds: [file.id], thinking: false, search: false });
    await Array.fromAsync(c.frames as unknown as AsyncIterable<unknown>);
  });

  test("an already processed file is not polled", async () => {
    f.sim.set({ fileInstantReady: true });
    try {
      const polls = f.sim.state().counters.file_polls;
      const file = await f.client.uploadFile(token, { data: new Uint8Array([1, 2, 3]), filename: "b.bin" });
      expect(file.ready).toBe(true);
      expect(f.sim.state().counters.file_polls).toBe(polls);
      expect(lastUpload().body.file.type).toBe("application/octet-stream");
    } finally {
      f.sim.set({ fileInstantReady: false });
    }
  });

  test("a FAILED file fails the upload with a CoreError", async () => {
    f.sim.set({ fileFailure: true });
    try {
      const e = await f.client.uploadFile(token, { data: new Uint8Array([1]), filename: "c.txt" }).catch((x) => x);
      expect(e).toBeInstanceOf(CoreError);
      expect(e.kind).toBe("upstream_error");
      expect(e.message).toContain("could not process");
    } finally {
      f.sim.set({ fileFailure: false });
    }
  });

  test("polling stops at file_poll_max", async () => {
    f.sim.set({ filePolls: 100 });
    const limited = new (f.client.constructor as typeof import("../../src/core/client").CoreClient)({ ...f.client.wire, file_poll_max: 3, file_poll_interval_ms: 1 }, f.sim.url, f.pool);
    try {
      const polls = f.sim.state().counters.file_polls;
      const e = await limited.uploadFile(token, { data: new Uint8Array([1]), filename: "d.txt" }).catch((x) => x);
      expect(e.message).toContain("did not finish processing");
      expect(f.sim.state().counters.file_polls - polls).toBe(3);
    } finally {
      f.sim.set({ filePolls: 1 });
    }
  });

  test("a streamed body of declared size is sent as multipart with the purpose field", async () => {
    const bytes = new TextEncoder().encode(content);
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(bytes.subarray(0, 5));
        c.enqueue(bytes.subarray(5));
        c.close();
      },
    });
    const file = await f.client.uploadFile(token, { data: stream, size: bytes.byteLength, filename: 'a"b\\c.txt', mime: "text/plain", purpose: "assistants" });
    expect(file.ready).toBe(true);
    const rec = lastUpload();
    expect(rec.body.file).toMatchObject({ name: "a_b_c.txt", size: bytes.byteLength });
    expect(rec.body.file.type).toStartWith("text/plain");
    expect(rec.body.fields).toEqual({ purpose: "assistants" });
    expect(rec.body.headers.x_file_size).toBe(String(bytes.byteLength));
  });

  test("a stream shorter than its declared size fails instead of lying in x-file-size", async () => {
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new Uint8Array(3));
        c.close();
      },
    });
    await expect(f.client.uploadFile(token, { data: stream, size: 10, filename: "short.bin" })).rejects.toThrow();
  });
});

describe("upload helpers", () => {
  test("filename sanitising: base name, backslash and quote replaced, empty → upload.bin", () => {
    expect(sanitiseFilename("a/b/c.txt")).toBe("c.txt");
    expect(sanitiseFilename('C:\\docs\\"x".txt')).toBe("C:_docs__x_.txt");
    expect(sanitiseFilename("")).toBe("upload.bin");
    expect(sanitiseFilename("dir/")).toBe("upload.bin");
  });

  test("tolerant reply shapes: file_id, filename/name, bytes/size, file_status, nested under file or data", () => {
    for (const biz of [
      { file: { file_id: "file-1", filename: "n.txt", bytes: 7, file_status: "processed" } },
      { data: { id: "file-1", name: "n.txt", size: 7, status: "READY" } },
      { id: "file-1", file_name: "n.txt", file_size: 7, status: "SUCCESS", token_usage: 3 },
    ]) {
      const o = fileObjectOf(biz)!;
      const file = toCoreFile(o, "fallback", 0);
      expect([file.id, file.filename, file.bytes, file.ready]).toEqual(["file-1", "n.txt", 7, true]);
    }
    expect(fileObjectOf({ files: [{ id: "file-a", status: "PENDING" }, { id: "file-b", status: "SUCCESS" }] }, "file-b")!.status).toBe("SUCCESS");
  });
});
