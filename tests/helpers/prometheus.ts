// Reads a /metrics scrape with the official Prometheus Python client's parser (tests/helpers/parse-metrics.py),
// a reader independent of the library that wrote it. It rejects malformed exposition text outright.
import { existsSync } from "node:fs";
import { join } from "node:path";

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

interface Family {
  name: string;
  type: string;
  help: string;
  samples: Sample[];
}

const SCRIPT = join(import.meta.dir, "parse-metrics.py");
const NON_FINITE: Record<string, number> = { nan: Number.NaN, inf: Number.POSITIVE_INFINITY, "-inf": Number.NEGATIVE_INFINITY };
// Debian's interpreter, where the Debian package puts the module (a pyenv or venv python on PATH may lack it).
const PYTHON = existsSync("/usr/bin/python3") ? "/usr/bin/python3" : "python3";

export function metricsParserMissing(): string | null {
  const r = Bun.spawnSync([PYTHON, "-c", "import prometheus_client.parser"]);
  return r.exitCode === 0 ? null : "python3-prometheus-client is not installed (apt-get install -y python3-prometheus-client)";
}

export class Scrape {
  readonly families: Map<string, Family>;

  constructor(readonly text: string) {
    // Fail with the fix rather than a Python traceback (.ci/install-ops.sh installs it in CI).
    const missing = metricsParserMissing();
    if (missing) throw new Error(missing);
    const r = Bun.spawnSync([PYTHON, SCRIPT], { stdin: Buffer.from(text) });
    if (r.exitCode !== 0) throw new Error(`the exposition parser rejected the scrape: ${r.stderr.toString()}`);
    const parsed = JSON.parse(r.stdout.toString()) as Family[];
    // parse-metrics.py sends NaN and the infinities as strings (JSON has no token for them).
    for (const f of parsed) for (const s of f.samples) if (typeof s.value === "string") s.value = NON_FINITE[s.value as string] ?? Number.NaN;
    this.families = new Map(parsed.map((f) => [f.name, f]));
  }

  /** A family by its name without the _total suffix (the Python client strips it from counters). */
  family(name: string): Family {
    const f = this.families.get(name.replace(/_total$/, ""));
    if (!f) throw new Error(`no metric family ${name} in the scrape`);
    return f;
  }

  /** Samples named `sample` (default: the family's own value samples) whose labels include every given pair. */
  samples(name: string, labels: Record<string, string> = {}, sample?: string): Sample[] {
    const f = this.family(name);
    const want = sample ?? (f.type === "histogram" ? `${f.name}_count` : f.type === "counter" ? `${f.name}_total` : f.name);
    return f.samples.filter((s) => s.name === want && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  }

  /** Sum of counter/gauge values, or of histogram observation counts, over the matching label sets. */
  sum(name: string, labels: Record<string, string> = {}): number {
    return this.samples(name, labels).reduce((t, s) => t + s.value, 0);
  }
}
