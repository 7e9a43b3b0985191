// Flags win over environment variables (D1.1, D1.2).
export interface CliArgs {
  command: "serve" | "demo" | "sim" | "version" | "probe" | "doctor" | "run" | "connect";
  help: boolean;
  version: boolean;
  port?: number;
  host?: string;
  config?: string;
  difficulty?: number;
  /** doctor: machine-readable output. */
  json?: boolean;
}

const COMMANDS = new Set(["serve", "demo", "sim", "version", "probe", "doctor", "run", "connect"]);

export function parseArgs(argv: string[]): CliArgs {
  const out: CliArgs = { command: "serve", help: false, version: false };
  let commandSeen = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const [flag, inline] = a.startsWith("--") && a.includes("=") ? [a.slice(0, a.indexOf("=")), a.slice(a.indexOf("=") + 1)] : [a, undefined];
    const value = () => {
      const v = inline ?? argv[++i];
      if (v === undefined) throw new Error(`${flag} needs a value`);
      return v;
    };
    switch (flag) {
      case "-h":
      case "--help":
        out.help = true;
        break;
      case "-v":
      case "--version":
        out.version = true;
        break;
      case "--port": {
        const n = Number(value());
        if (!Number.isInteger(n) || n < 0 || n > 65535) throw new Error("--port must be an integer 0-65535");
        out.port = n;
        break;
      }
      case "--host":
        out.host = value();
        break;
      case "--json":
        out.json = true;
        break;
      case "--config":
        out.config = value();
        break;
      case "--difficulty": {
        const n = Number(value());
        if (!Number.isInteger(n) || n < 1) throw new Error("--difficulty must be a positive integer");
        out.difficulty = n;
        break;
      }
      default:
        // `svc-gateway help` is what people type first; it is --help.
        if (!commandSeen && a === "help") {
          out.help = true;
          commandSeen = true;
        } else if (!commandSeen && COMMANDS.has(a)) {
          out.command = a as CliArgs["command"];
          commandSeen = true;
          // The simulator, run and connect parse their own arguments.
          if (a === "sim" || a === "run" || a === "connect") return out;
        } else throw new Error(`unknown argument ${JSON.stringify(a)}`);
    }
  }
  return out;
}
