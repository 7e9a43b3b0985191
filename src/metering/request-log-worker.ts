// The request log's reader thread (request-log-reader.ts): its own read-only connection to the WAL file, so the
// admin reads never hold the event loop. Messages: { id, path, op, args } → { id, ok, value | error }.
// One write op: "checkpoint" copies the WAL into the file (and syncs it) on a second, read-write connection, so
// the event loop's inserts only ever append to the WAL (request-log.ts; issue 31's cost budget).
import { Database } from "bun:sqlite";
import { READS, type ReadOp } from "./request-log-read";

declare const self: Worker;
const dbs = new Map<string, Database>();
const writers = new Map<string, Database>();

function checkpoint(path: string): unknown {
  let db = writers.get(path);
  if (!db) {
    db = new Database(path);
    // Never wait on the event loop's writer: a busy checkpoint simply copies less and the next one catches up.
    db.exec("PRAGMA busy_timeout = 0");
    writers.set(path, db);
  }
  return db.query("PRAGMA wal_checkpoint(PASSIVE)").get();
}

self.onmessage = (e: MessageEvent<{ id: number; path: string; op: ReadOp | "checkpoint"; args: unknown[] }>) => {
  const { id, path, op, args } = e.data;
  try {
    if (op === "checkpoint") {
      postMessage({ id, ok: true, value: checkpoint(path) });
      return;
    }
    let db = dbs.get(path);
    if (!db) {
      db = new Database(path, { readonly: true });
      db.exec("PRAGMA busy_timeout = 1000");
      dbs.set(path, db);
    }
    const value = (READS[op] as (db: Database, ...a: unknown[]) => unknown)(db, ...args);
    postMessage({ id, ok: true, value });
  } catch (err) {
    postMessage({ id, ok: false, error: String((err as Error)?.message ?? err) });
  }
};
