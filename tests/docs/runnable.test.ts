// Issue 33 item 5: the docs are the binary's truth. Every shell block marked runnable (```sh runnable) in the
// README, docs/deployment.md and docs/operations.md runs, in order and in one bash per document (a block may use
// what an earlier one set), against the built binary in demo mode on a free loopback port: `5001` in a block
// becomes that port, `svc-gateway` on PATH is the binary, and the admin key is operations.md's `your-admin-key`.
// A block passes when bash exits 0 (errexit, pipefail) and no answer is an error object.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync, symlinkSync, mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { buildBinary, freePort } from "../helpers/binary";
import { scratchDir } from "../helpers/scratch";

const ROOT = resolve(import.meta.dir, "../..");
const DOCS = ["README.md", "docs/deployment.md", "docs/operations.md"];
const ADMIN_KEY = "your-admin-key";

/** The bodies of the ```sh runnable / ```bash runnable blocks of a Markdown text, in order. */
export function runnableBlocks(markdown: string): string[] {
  const blocks: string[] = [];
  const re = /^```(?:sh|bash)[ \t]+runnable[ \t]*\n([\s\S]*?)^```[ \t]*$/gm;
  for (const m of markdown.matchAll(re)) blocks.push(m[1]!);
  return blocks;
}

let proc: ReturnType<typeof Bun.spawn>;
let port: number;
let dir: string;
let binDir: string;

beforeAll(async () => {
  const binary = await buildBinary();
  dir = scratchDir("svc-docs-run-");
  binDir = join(dir, "bin");
  mkdirSync(binDir);
  symlinkSync(binary, join(binDir, "svc-gateway"));
  port = await freePort();
  proc = Bun.spawn([binary], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? "", HOME: dir, PORT: String(port), SVC_ADMIN_KEY: ADMIN_KEY, SVC_CONFIG_PATH: join(dir, "config.json"), LOG_LEVEL: "warn" },
    stdout: "ignore",
    stderr: "pipe",
  });
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/readyz`)).ok) return;
    } catch {}
    await Bun.sleep(50);
  }
  throw new Error("the binary did not become ready");
}, 120_000);

afterAll(async () => {
  proc?.kill("SIGTERM");
  await proc?.exited;
});

describe("runnable shell blocks of the docs", () => {
  test("each document marks some blocks runnable (the parser finds them)", () => {
    const counts = DOCS.map((d) => runnableBlocks(readFileSync(join(ROOT, d), "utf8")).length);
    expect(counts.every((n) => n > 0)).toBe(true);
    expect(runnableBlocks("```sh runnable\necho a\n```\n```sh\necho b\n```\n")).toEqual(["echo a\n"]);
  });

  for (const doc of DOCS) {
    test(`${doc}: every runnable block succeeds against the binary`, () => {
      const blocks = runnableBlocks(readFileSync(join(ROOT, doc), "utf8"));
      const script = ["set -eo pipefail", ...blocks.map((b, i) => `echo; echo "=== block ${i + 1}"\n${b.replaceAll("5001", String(port))}`)].join("\n");
      const r = Bun.spawnSync(["bash", "-c", script], {
        cwd: dir,
        env: { PATH: `${binDir}:${process.env.PATH ?? ""}`, HOME: dir },
      });
      const out = r.stdout.toString();
      if (process.env.SHOW_DOCS_RUN) console.log(out);
      const context = { doc, exit: r.exitCode, out: out.slice(-2000), err: r.stderr.toString().slice(-2000) };
      expect(context).toEqual({ ...context, exit: 0 });
      // Every block ran, and none was answered with an error object ({detail} on admin routes, {error} elsewhere).
      expect(out.match(/^=== block \d+$/gm)?.length).toBe(blocks.length);
      expect({ doc, errors: out.match(/\{"(detail|error)":[^\n]*/g) ?? [] }).toEqual({ doc, errors: [] });
    }, 120_000);
  }
});
