// node:fs/promises, loaded on first use instead of with the server's code: loading that module costs ≈ 3.5 ms of a
// cold start, and the start itself only reads a few small files, which it does with node:fs's synchronous calls
// (node:fs is loaded anyway). Writes, uploads and the sample store load it when they first run (issue 35).
type FsPromises = typeof import("node:fs/promises");

let loading: Promise<FsPromises> | undefined;

export function fsp(): Promise<FsPromises> {
  return (loading ??= import("node:fs/promises"));
}
