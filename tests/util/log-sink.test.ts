// The default log sink writes each line to fd 1 at once (issue 35: not through process.stdout, whose first use
// loads Node's stream classes at start). What must hold as with process.stdout: every line arrives, in order, even
// when the process exits right after writing and the reader is slower than the writer (a pipe fills up), and
// text written by writeStdout (the demo banner) keeps its place. With process.stdout.write, a pipe the parent made
// non-blocking lost the lines queued at exit (354 of 401).
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { stdoutWriter } from "../../src/util/log";

const LOG = join(import.meta.dir, "../../src/util/log.ts");

describe("the default log sink", () => {
  test("4 MB of lines through a pipe, then an immediate exit: every line, in order, the banner in its place", async () => {
    const script = `
      const { createLogger, writeStdout } = await import(${JSON.stringify(LOG)});
      const log = createLogger("info");
      const pad = "x".repeat(10_000);
      for (let i = 0; i < 400; i++) {
        log.info("line", { i, pad });
        if (i === 200) writeStdout("banner\\n");
      }
      log.debug("below the level", { i: -1 });
      process.exit(0);
    `;
    const proc = Bun.spawn([process.execPath, "-e", script], { stdout: "pipe", stderr: "pipe" });
    // Read slowly at first, so the child's writes meet a full pipe.
    await Bun.sleep(200);
    const out = await new Response(proc.stdout).text();
    expect(await proc.exited).toBe(0);
    const lines = out.split("\n");
    expect(lines.pop()).toBe("");
    expect(lines).toHaveLength(401);
    expect(lines[201]).toBe("banner");
    const logged = lines.filter((l) => l !== "banner").map((l) => JSON.parse(l) as { msg: string; i: number; pad: string });
    expect(logged.map((l) => l.i)).toEqual([...Array(400).keys()]);
    expect(logged.every((l) => l.msg === "line" && l.pad.length === 10_000)).toBe(true);
  });

  test("a write that fails hands this line and every later one to the fallback, in order", () => {
    const got: string[] = [];
    const write = stdoutWriter(2_000_000_000, (c) => void got.push(typeof c === "string" ? c : new TextDecoder().decode(c)));
    write("one\n");
    write('two "quoted" ünïcode\n');
    write("three\n");
    expect(got).toEqual(["one\n", 'two "quoted" ünïcode\n', "three\n"]);
  });
});
