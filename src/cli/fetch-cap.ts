// Bun parks every outgoing fetch beyond BUN_CONFIG_MAX_HTTP_REQUESTS (default 256) in a queue of its own, with
// no byte, no error and no trace in the gateway: requests the pool had already admitted stalled silently once
// 256 streams were open (issue 17). Bun reads the variable only when the process starts — assigning
// process.env or setenv() later has no effect (measured on 1.4.5) — so the server re-executes itself, in place
// (execve: same pid, same stdio, signals reach it as before), with the cap at Bun's maximum. Then the pool's
// own limits (global_max_inflight, the FIFO queue and its 429) are the only ones a request meets, whatever an
// operator sets them to while running.
// bun:ffi is required only when the re-exec happens: a start with the cap already in the environment (the unit,
// the image) never loads it (issue 35).
import type * as Ffi from "bun:ffi";

export const FETCH_CAP_ENV = "BUN_CONFIG_MAX_HTTP_REQUESTS";
/** Bun's upper bound for the variable. */
export const FETCH_CAP_MAX = 65_535;

export interface ExecPlan {
  path: string;
  argv: string[];
  env: Record<string, string>;
}

/**
 * The command that restarts this process with the cap lifted, or null when it need not (the variable is already
 * set: an operator's explicit choice is kept).
 */
export function fetchCapPlan(p: {
  env: Record<string, string | undefined>;
  execPath: string;
  execArgv: string[];
  argv: string[];
  main: string;
}): ExecPlan | null {
  if (p.env[FETCH_CAP_ENV] !== undefined) return null;
  // A compiled binary's argv[1] is its embedded entry ("/$bunfs/root/…", "B:/~BUN/…"), which it must not be given
  // again; under `bun src/main.ts` argv[1] is the script, which must be.
  const compiled = p.main.startsWith("/$bunfs/") || p.main.startsWith("B:/~BUN/") || p.main.startsWith("B:\\~BUN\\");
  const argv = compiled ? [p.execPath, ...p.argv.slice(2)] : [p.execPath, ...p.execArgv, ...p.argv.slice(1)];
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(p.env)) if (v !== undefined) env[k] = v;
  env[FETCH_CAP_ENV] = String(FETCH_CAP_MAX);
  return { path: p.execPath, argv, env };
}

/**
 * Replaces the process image as planned; returns only when that was impossible (no C library to call, Windows),
 * with the reason, so that the caller can warn and serve with Bun's default cap.
 */
export function execInPlace(plan: ExecPlan): string {
  if (process.platform === "win32") return "re-exec is not available on Windows";
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { dlopen, FFIType, ptr } = require("bun:ffi") as typeof Ffi;
  let lib;
  try {
    lib = dlopen(process.platform === "darwin" ? "libSystem.B.dylib" : "libc.so.6", {
      execve: { args: [FFIType.ptr, FFIType.ptr, FFIType.ptr], returns: FFIType.i32 },
    });
  } catch (e) {
    return `no C library to re-exec with (${(e as Error).message})`;
  }
  // The buffers must stay referenced until execve has read them: `keep` holds them for the call.
  const keep: Buffer[] = [];
  const cstr = (s: string) => {
    const b = Buffer.from(`${s}\0`);
    keep.push(b);
    return b;
  };
  const list = (items: string[]) => {
    const a = new BigUint64Array(items.length + 1);
    items.forEach((s, i) => (a[i] = BigInt(ptr(cstr(s)))));
    return a;
  };
  const argv = list(plan.argv);
  const envp = list(Object.entries(plan.env).map(([k, v]) => `${k}=${v}`));
  lib.symbols.execve(ptr(cstr(plan.path)), ptr(argv), ptr(envp));
  lib.close();
  return `execve failed for ${plan.path}`;
}

/** Lifts the cap for a server process before it makes any outgoing request; a no-op when already lifted. */
export function liftFetchCap(warn: (msg: string) => void): void {
  const plan = fetchCapPlan({ env: process.env, execPath: process.execPath, execArgv: process.execArgv, argv: process.argv, main: Bun.main });
  if (!plan) return;
  const why = execInPlace(plan);
  warn(`svc-gateway: outgoing requests stay capped at Bun's default of 256 (${why}); set ${FETCH_CAP_ENV}=${FETCH_CAP_MAX} in the environment\n`);
}
