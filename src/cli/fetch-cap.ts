// Bun parks every outgoing fetch beyond BUN_CONFIG_MAX_HTTP_REQUESTS (default 256) in a queue of its own, with
// no byte, no error and no trace in the gateway: requests the pool had already admitted stalled silently once
// 256 streams were open (issue 17). Bun reads the variable only when the process starts — assigning
// process.env or setenv() later has no effect (measured on 1.4.5) — so the server re-executes itself, in place
// (execve: same pid, same stdio, signals reach it as before), with the cap at Bun's maximum. Then the pool's
// own limits (global_max_inflight, the FIFO queue and its 429) are the only ones a request meets, whatever an
// operator sets them to while running.
// The re-exec is Node's `process.execve`, which Bun implements: no bun:ffi, no C library to open by name, and it
// works with the JIT turned off, which bun:ffi does not (issue 35).

export const FETCH_CAP_ENV = "BUN_CONFIG_MAX_HTTP_REQUESTS";
/** Bun's upper bound for the variable. */
export const FETCH_CAP_MAX = 65_535;

/** `process.execve`'s shape (Node ≥ 23.11, Bun); a parameter of execInPlace so that tests can stand in for it. */
export type Execve = (file: string, args: string[], env: Record<string, string>) => void;

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
 * Replaces the process image as planned (`process.execve`: execve(2), same pid, stdio and signal handling);
 * returns only when that was impossible (Windows, a runtime without it, execve refused), with the reason, so that
 * the caller can warn and serve with Bun's default cap.
 */
export function execInPlace(plan: ExecPlan, exec: Execve | null = (process as { execve?: Execve }).execve ?? null): string {
  if (process.platform === "win32") return "re-exec is not available on Windows";
  if (typeof exec !== "function") return "this runtime has no process.execve";
  // Bun flags process.execve as experimental with a warning on stderr at every call; an operator would read it
  // at every start, about an internal detail, so it is not emitted for this one call.
  const emitWarning = process.emitWarning;
  process.emitWarning = (() => {}) as typeof process.emitWarning;
  try {
    exec.call(process, plan.path, plan.argv, plan.env);
  } catch (e) {
    return `execve failed for ${plan.path}: ${(e as Error).message}`;
  } finally {
    process.emitWarning = emitWarning;
  }
  return `execve returned for ${plan.path}`;
}

/** Lifts the cap for a server process before it makes any outgoing request; a no-op when already lifted. */
export function liftFetchCap(warn: (msg: string) => void): void {
  const plan = fetchCapPlan({ env: process.env, execPath: process.execPath, execArgv: process.execArgv, argv: process.argv, main: Bun.main });
  if (!plan) return;
  const why = execInPlace(plan);
  warn(`svc-gateway: outgoing requests stay capped at Bun's default of 256 (${why}); set ${FETCH_CAP_ENV}=${FETCH_CAP_MAX} in the environment\n`);
}
