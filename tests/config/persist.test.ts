import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { atomicWriteFile, CoalescingWriter, tempPathFor } from "../../src/config/persist";
import { scratchDir } from "../helpers/scratch";

let dir: string;
beforeEach(() => {
  dir = scratchDir("svc-persist-");
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const PERSIST_MODULE = resolve(import.meta.dir, "../../src/config/persist.ts");

describe("atomicWriteFile (D2.3)", () => {
  test("writes the data with mode 0600 and leaves no temp file", async () => {
    const path = join(dir, "config.json");
    await atomicWriteFile(path, '{"a":1}\n');
    expect(readFileSync(path, "utf8")).toBe('{"a":1}\n');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(["config.json"]);
  });

  test("replaces an existing file", async () => {
    const path = join(dir, "config.json");
    writeFileSync(path, "old");
    await atomicWriteFile(path, "new");
    expect(readFileSync(path, "utf8")).toBe("new");
    expect(readdirSync(dir)).toEqual(["config.json"]);
  });

  test("temp file name is <dir>/.config.json.tmp-<pid>-<8 hex>", () => {
    const t = tempPathFor(join(dir, "config.json"));
    expect(t.startsWith(dir)).toBe(true);
    expect(t.slice(dir.length + 1)).toMatch(new RegExp(`^\\.config\\.json\\.tmp-${process.pid}-[0-9a-f]{8}$`));
  });

  test("creates a missing parent directory", async () => {
    const path = join(dir, "a", "b", "config.json");
    await atomicWriteFile(path, "x");
    expect(readFileSync(path, "utf8")).toBe("x");
  });

  test("a process killed after the temp file is written but before the rename leaves the old file intact", async () => {
    const path = join(dir, "config.json");
    writeFileSync(path, '{"version":"old"}');
    const script = `
      import { atomicWriteFile } from ${JSON.stringify(PERSIST_MODULE)};
      await atomicWriteFile(${JSON.stringify(path)}, '{"version":"new"}', {
        beforeRename: () => process.kill(process.pid, "SIGKILL"),
      });
      console.log("not reached");
    `;
    const child = Bun.spawn({ cmd: [process.execPath, "-e", script], stdout: "pipe", stderr: "pipe" });
    const code = await child.exited;
    expect(child.signalCode).toBe("SIGKILL");
    expect(code).not.toBe(0);
    expect(await new Response(child.stdout).text()).not.toContain("not reached");
    // Old content, whole; the new data exists only in the (complete) temp file.
    expect(readFileSync(path, "utf8")).toBe('{"version":"old"}');
    const temps = readdirSync(dir).filter((n) => n.startsWith(".config.json.tmp-"));
    expect(temps.length).toBe(1);
    expect(readFileSync(join(dir, temps[0]!), "utf8")).toBe('{"version":"new"}');
  });

  test("a failure before the rename throws, keeps the old file and removes the temp file", async () => {
    const path = join(dir, "config.json");
    writeFileSync(path, "old");
    const err = await atomicWriteFile(path, "new", {
      beforeRename: () => {
        throw Object.assign(new Error("disk full"), { code: "ENOSPC" });
      },
    }).catch((e) => e);
    expect(err.code).toBe("ENOSPC");
    expect(readFileSync(path, "utf8")).toBe("old");
    expect(readdirSync(dir)).toEqual(["config.json"]);
  });

  test("a path under a regular file fails with the OS error code", async () => {
    writeFileSync(join(dir, "file"), "x");
    const err = await atomicWriteFile(join(dir, "file", "config.json"), "x").catch((e) => e);
    expect(["ENOTDIR", "EEXIST"]).toContain(err.code);
  });
});

describe("CoalescingWriter", () => {
  test("an unwritable path is reported with path and OS error code, never thrown (D2.4)", async () => {
    writeFileSync(join(dir, "file"), "x");
    const path = join(dir, "file", "config.json");
    const w = new CoalescingWriter(path);
    const r = await w.write("{}");
    expect(r.writable).toBe(false);
    expect(r.warning).toContain(path);
    expect(r.warning).toMatch(/ENOTDIR|EEXIST/);
    expect(w.lastResult()).toEqual(r);
  });

  test("a burst in one tick becomes one write of the latest data", async () => {
    const path = join(dir, "config.json");
    const w = new CoalescingWriter(path);
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => w.write(`v${i}`)));
    expect(results.every((r) => r.writable)).toBe(true);
    expect(w.writes).toBe(1);
    expect(readFileSync(path, "utf8")).toBe("v49");
  });

  test("writes requested while one runs are coalesced into one more write", async () => {
    const written: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const w = new CoalescingWriter("/unused", {
      writeFile: async (_p, data) => {
        written.push(data);
        if (written.length === 1) await gate;
      },
    });
    const first = w.write("a");
    await Bun.sleep(5);
    const later = [w.write("b"), w.write("c"), w.write(() => "d")];
    release();
    await Promise.all([first, ...later]);
    expect(written).toEqual(["a", "d"]);
  });

  test("flush waits for queued writes", async () => {
    const path = join(dir, "config.json");
    const w = new CoalescingWriter(path);
    void w.write("x");
    await w.flush();
    expect(readFileSync(path, "utf8")).toBe("x");
  });

  test("a failed write does not stop later writes", async () => {
    let fail = true;
    const w = new CoalescingWriter("/p", {
      writeFile: async () => {
        if (fail) throw Object.assign(new Error("ro"), { code: "EROFS" });
      },
    });
    expect(await w.write("a")).toEqual({ writable: false, warning: "cannot write /p (EROFS); changes live in memory only" });
    fail = false;
    expect(await w.write("b")).toEqual({ writable: true });
  });
});

describe("removeStaleTempFiles", () => {
  test("removes temp files of dead processes, keeps those of live ones and unrelated files", async () => {
    const { removeStaleTempFiles } = await import("../../src/config/persist");
    const path = join(dir, "config.json");
    writeFileSync(path, "{}");
    // pid 2^22+1 is above Linux's pid_max default ceiling, so no live process has it.
    const dead = `.config.json.tmp-4194305-0badc0de`;
    const live = `.config.json.tmp-${process.pid}-12345678`;
    writeFileSync(join(dir, dead), "partial");
    writeFileSync(join(dir, live), "mine");
    writeFileSync(join(dir, "other.txt"), "x");
    expect(await removeStaleTempFiles(path)).toEqual([dead]);
    expect(readdirSync(dir).sort()).toEqual([live, "config.json", "other.txt"].sort());
  });
});
