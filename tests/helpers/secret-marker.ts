// A password the tests configure (issue 33 item 3), unique to each `bun test` run, so that what a run leaves under
// the system temp directory can be found: after the whole run (tests/setup/scratch.ts) every file under
// os.tmpdir() is searched for it, and a file that still holds it fails the run. Use it wherever a test writes an
// account password, a backup or a config to disk.
import { randomUUID } from "node:crypto";
import { lstatSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

export const LEAK_MARKER = `leak-check-pw-${randomUUID()}`;
/** Only a file written since the marker was made can hold it: older files are not read. */
const MARKER_BORN_MS = Date.now() - 1000;

/** Files bigger than this are not read: binaries and browser caches, never a config or a backup. */
const MAX_FILE_BYTES = 16 * 1024 * 1024;
const MAX_FILES = 200_000;

/**
 * Every regular file under `root` (symbolic links not followed) whose bytes contain `needle`; files last written
 * before `since` (ms) are skipped, which keeps the search short on a temp directory full of other runs' files.
 */
export function filesContaining(root: string, needle: string, since = MARKER_BORN_MS): string[] {
  const want = Buffer.from(needle);
  const found: string[] = [];
  let seen = 0;
  const walk = (dir: string) => {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return; // another user's private directory
    }
    for (const name of names) {
      if (++seen > MAX_FILES) return;
      const path = join(dir, name);
      let st;
      try {
        st = lstatSync(path);
      } catch {
        continue; // gone meanwhile
      }
      if (st.isDirectory()) walk(path);
      else if (st.isFile() && st.size <= MAX_FILE_BYTES && st.mtimeMs >= since) {
        try {
          if (readFileSync(path).includes(want)) found.push(path);
        } catch {}
      }
    }
  };
  walk(root);
  return found;
}
