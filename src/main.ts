// Command line: serve (default), demo, sim, version, probe, doctor, run, connect. Exit codes (D1.2): 0 clean stop, 1 fatal runtime or
// bind error, 2 invalid configuration at start, 130 forced stop.
import { VERSION } from "./version";
import { parseArgs, type CliArgs } from "./cli/args";
import { HELP_TEXT } from "./cli/help";

async function main(argv: string[]): Promise<number> {
  let args: CliArgs;
  try {
    args = parseArgs(argv);
  } catch (e) {
    process.stderr.write(`svc-gateway: ${(e as Error).message}\n\n${HELP_TEXT}`);
    return 2;
  }
  if (args.help) {
    process.stdout.write(HELP_TEXT);
    return 0;
  }
  if (args.command === "version" || args.version) {
    process.stdout.write(`svc-gateway ${VERSION}\n`);
    return 0;
  }
  if (args.command === "sim") {
    const { runSimCli } = await import("./sim/cli");
    await runSimCli(argv.slice(argv.indexOf("sim") + 1));
    return -1;
  }
  if (args.command === "probe") return (await import("./cli/probe")).runProbe(args);
  if (args.command === "doctor") return (await import("./cli/doctor")).runDoctorCli(args);
  if (args.command === "run") return (await import("./cli/run-agent")).runAgent(argv.slice(argv.indexOf("run") + 1));
  if (args.command === "connect") return (await import("./cli/run-agent")).connectAgent(argv.slice(argv.indexOf("connect") + 1));
  // Before any outgoing request: may re-execute this process in place with Bun's fetch cap lifted (issue 17).
  (await import("./cli/fetch-cap")).liftFetchCap((m) => process.stderr.write(m));
  const { runServe } = await import("./cli/serve");
  return runServe(args);
}

const code = await main(process.argv.slice(2));
// -1: a long-running command that keeps the process alive and exits from its own signal handlers.
if (code >= 0) process.exit(code);
