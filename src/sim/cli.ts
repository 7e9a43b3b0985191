// `svc-gateway sim [--port N] [--host ADDR] [--difficulty D] [--seed S]`: the simulator alone, until SIGINT or SIGTERM.
// It accepts any credentials (open), so a gateway or a raw client can use it without configuration.
import { startCoreSimulator } from "./index";

function flag(argv: string[], name: string): string | undefined {
  const i = argv.findIndex((a) => a === name || a.startsWith(`${name}=`));
  if (i < 0) return undefined;
  const a = argv[i]!;
  return a.includes("=") ? a.slice(a.indexOf("=") + 1) : argv[i + 1];
}

function intFlag(argv: string[], name: string, fallback: number | undefined): number | undefined {
  const v = flag(argv, name);
  if (v === undefined) return fallback;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} needs a non-negative integer, got ${JSON.stringify(v)}`);
  return n;
}

/** Starts the simulator, prints its URL and resolves once it has stopped on SIGINT/SIGTERM. */
export async function runSimCli(argv: string[]): Promise<void> {
  const port = intFlag(argv, "--port", 0)!;
  const difficulty = Math.max(1, intFlag(argv, "--difficulty", 144000)!);
  const seed = intFlag(argv, "--seed", undefined);
  // Any credentials are accepted: loopback only unless asked otherwise (issue 33).
  const hostname = flag(argv, "--host") ?? process.env.SVC_HOST ?? "127.0.0.1";
  // A standalone core serves benches and agent sessions for hours: its log keeps the last 1,000 requests (docs/simulator.md).
  const sim = await startCoreSimulator({ port, hostname, difficulty, seed, open: true, clock: "real", accounts: [{ email: "demo@simulator.local", password: "demo-password" }], requestLog: 1000 });
  process.stdout.write(`core simulator listening on ${sim.url} (difficulty ${difficulty}, seed ${sim.seed}; any credentials are accepted)\n`);
  await new Promise<void>((resolve) => {
    const stop = async () => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      await sim.stop();
      resolve();
      process.exit(0);
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
}
