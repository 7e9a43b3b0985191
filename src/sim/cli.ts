// `svc-gateway sim [--port N] [--difficulty D]`: the simulator alone, until SIGINT or SIGTERM.
import { startCoreSimulator } from "./index";

export async function runSimCli(argv: string[]): Promise<void> {
  const arg = (name: string) => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const port = Number(arg("--port") ?? 0);
  const difficulty = Number(arg("--difficulty") ?? 144000);
  const sim = await startCoreSimulator({ port, difficulty, open: true, clock: "real", accounts: [{ email: "demo@simulator.local", password: "demo-password" }] });
  process.stdout.write(`core simulator listening on ${sim.url} (difficulty ${difficulty}; any credentials are accepted)\n`);
  const stop = async () => {
    await sim.stop();
    process.exit(0);
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}
