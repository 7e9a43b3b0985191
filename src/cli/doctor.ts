// `svc-gateway doctor [--config path] [--json]`: runs the checks of src/doctor/ against the configuration the
// gateway would load, prints the table (or JSON), exits 0 when nothing failed and 1 otherwise (2: the config
// does not load, as for serve). Starts no server and no completion.
import type { CliArgs } from "./args";
import { ConfigError, loadConfig } from "../config/load";
import { runDoctor } from "../doctor/checks";
import { renderTable } from "../doctor/render";

export async function runDoctorCli(args: CliArgs, env: Record<string, string | undefined> = process.env): Promise<number> {
  let loaded;
  try {
    loaded = await loadConfig({ configPath: args.config, env });
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    const report = { ok: false, checks: [{ check: "config", status: "fail" as const, result: e.message, action: "Fix the configuration; the gateway does not start with it." }] };
    process.stdout.write(args.json ? `${JSON.stringify(report, null, 2)}\n` : renderTable(report));
    return 2;
  }
  const report = await runDoctor({
    config: loaded.config,
    env,
    dataDir: loaded.data_dir,
    configSource: loaded.env_backed ? "configuration from the environment" : loaded.path,
    configWarnings: loaded.warnings,
  });
  process.stdout.write(args.json ? `${JSON.stringify(report, null, 2)}\n` : renderTable(report));
  return report.ok ? 0 : 1;
}
