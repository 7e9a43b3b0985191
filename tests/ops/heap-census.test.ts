// Issue 30 item 12: SIGUSR2 writes a heap census to SVC_HEAP_CENSUS_FILE (the soak reads it after each round);
// without the variable the signal is not taken over. A real child process, a real signal.
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const dir = mkdtempSync(join(tmpdir(), "heap-census-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const MODULE = resolve(import.meta.dir, "../../src/metering/heap-census.ts");

/** A child that installs the handler (or not), says so, and then stays alive until killed. */
function child(file: string | undefined) {
  const script = `import { installHeapCensus } from ${JSON.stringify(MODULE)};
const kept = Array.from({ length: 5000 }, (_, i) => ({ census_marker: i }));
console.log(installHeapCensus(process.env.CENSUS_FILE) ? "installed" : "not installed");
setInterval(() => kept.length, 1000);`;
  return Bun.spawn([process.execPath, "-e", script], { env: { ...process.env, ...(file ? { CENSUS_FILE: file } : {}) }, stdout: "pipe", stderr: "pipe" });
}

async function firstLine(p: ReturnType<typeof child>): Promise<string> {
  const reader = p.stdout.getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) break;
    text += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  return text.trim();
}

describe("heap census on SIGUSR2", () => {
  test("with the variable set: the file appears with RSS, heap size and object counts by type", async () => {
    const file = join(dir, "census.json");
    const p = child(file);
    try {
      expect(await firstLine(p)).toBe("installed");
      p.kill("SIGUSR2");
      for (let i = 0; i < 200 && !existsSync(file); i++) await Bun.sleep(25);
      const census = JSON.parse(readFileSync(file, "utf8"));
      expect(census.rss_bytes).toBeGreaterThan(0);
      expect(census.heap_size).toBeGreaterThan(0);
      // The heap's blocks hold at least its live objects; the soak compares them after a burst.
      expect(census.heap_capacity).toBeGreaterThanOrEqual(census.heap_size);
      expect(census.extra_memory).toBeGreaterThanOrEqual(0);
      // The 5,000 objects the child keeps are counted.
      expect(census.types.Object).toBeGreaterThanOrEqual(5000);
      expect(census.object_count).toBeGreaterThan(census.types.Object);
      // The process lives on after a census.
      expect(p.exitCode).toBeNull();
    } finally {
      p.kill();
      await p.exited;
    }
  });

  test("without it: nothing is installed, and SIGUSR2 keeps its default meaning (the process ends)", async () => {
    const p = child(undefined);
    expect(await firstLine(p)).toBe("not installed");
    p.kill("SIGUSR2");
    expect(await p.exited).not.toBe(0);
  });
});
