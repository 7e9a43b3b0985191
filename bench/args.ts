// What the benchmarks share for their command lines and the gateway they load: `--name value` flags and the four
// bench accounts the simulator accepts.
const argv = process.argv.slice(2);

/** The value after `--name`, or `fallback`. */
export function flag(name: string, fallback: string): string {
  return argv.includes(`--${name}`) ? argv[argv.indexOf(`--${name}`) + 1]! : fallback;
}

/** Whether `--name` is on the command line. */
export function hasFlag(name: string): boolean {
  return argv.includes(`--${name}`);
}

export const BENCH_ACCOUNTS = ["a", "b", "c", "d"].map((x) => ({ email: `${x}@bench.test`, password: `pw-${x}` }));

type Sections = Record<string, Record<string, unknown>>;

/** The benches' gateway config: the bench key and accounts, limits that never queue, then each of `extras`' sections merged in, in order. */
export function benchConfig(key: string, ...extras: Sections[]): Record<string, unknown> {
  const config: Record<string, unknown> = { keys: [key], accounts: BENCH_ACCOUNTS, runtime: { account_max_inflight: 250, account_max_queue: 2000 } };
  for (const extra of extras) for (const [k, v] of Object.entries(extra)) config[k] = { ...(config[k] as object), ...v };
  return config;
}
