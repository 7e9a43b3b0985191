// The request log's reader thread (request-log-reader.ts): its own read-only connection to the WAL file, so the
// admin reads never hold the event loop. Messages: { id, path, op, args } → { id, ok, value | error }.
import { Database } from "bun:sqlite";
import { READS, type ReadOp } from "./request-log-read";

declare const self: Worker;
const dbs = new Map<string, Database>();

self.onmessage = (e: MessageEvent<{ id: number; path: string; op: ReadOp; args: unknown[] }>) => {
  const { id, path, op, args } = e.data;
  try {
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
