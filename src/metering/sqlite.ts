// bun:sqlite, required when the first database is opened: the request log's file opens at the first quiet moment
// after the start (request-log.ts), so a start need not load the module (≈ 1.4 ms in the compiled binary, issue 35).
/* eslint-disable @typescript-eslint/no-require-imports */
export const sqlite = (): typeof import("bun:sqlite") => require("bun:sqlite") as typeof import("bun:sqlite");
