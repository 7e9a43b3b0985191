// The final stage of the project's Dockerfile, read as data, so the root-filesystem test runs what the image
// would hold and run rather than a copy of it that could drift.
import { readFileSync } from "node:fs";

export interface FinalStage {
  base: string;
  /** COPY --from=<stage> lines: source in the build stage → destination in the image, with --chown. */
  copies: { from: string; src: string; dest: string; chown?: string }[];
  env: Record<string, string>;
  user: string;
  workdir: string;
  volumes: string[];
  healthcheck: string[];
  entrypoint: string[];
  cmd: string[];
}

/** Joins continuation lines and drops comments. */
function instructions(text: string): string[] {
  return text
    .replace(/\\\r?\n/g, " ")
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith("#"));
}

const jsonArray = (s: string): string[] => {
  const v = JSON.parse(s);
  if (!Array.isArray(v) || !v.every((x) => typeof x === "string")) throw new Error(`not an exec-form array: ${s}`);
  return v;
};

export function readFinalStage(path: string): FinalStage {
  const all = instructions(readFileSync(path, "utf8"));
  const lastFrom = all.map((l) => /^FROM\s/i.test(l)).lastIndexOf(true);
  const stage: FinalStage = { base: all[lastFrom]!.split(/\s+/)[1]!, copies: [], env: {}, user: "root", workdir: "/", volumes: [], healthcheck: [], entrypoint: [], cmd: [] };
  for (const line of all.slice(lastFrom + 1)) {
    const [op, ...rest] = line.split(/\s+/);
    const args = rest.join(" ");
    switch (op!.toUpperCase()) {
      case "COPY": {
        const flags = Object.fromEntries(rest.filter((r) => r.startsWith("--")).map((r) => r.slice(2).split("=") as [string, string]));
        const [src, dest] = rest.filter((r) => !r.startsWith("--"));
        stage.copies.push({ from: flags.from ?? "", src: src!, dest: dest!, chown: flags.chown });
        break;
      }
      case "ENV":
        for (const m of args.matchAll(/(\w+)=("[^"]*"|\S+)/g)) stage.env[m[1]!] = m[2]!.replace(/^"|"$/g, "");
        break;
      case "USER":
        stage.user = args;
        break;
      case "WORKDIR":
        stage.workdir = args;
        break;
      case "VOLUME":
        stage.volumes = jsonArray(args);
        break;
      case "HEALTHCHECK":
        stage.healthcheck = jsonArray(args.slice(args.indexOf("CMD") + 3).trim());
        break;
      case "ENTRYPOINT":
        stage.entrypoint = jsonArray(args);
        break;
      case "CMD":
        stage.cmd = jsonArray(args);
        break;
    }
  }
  return stage;
}
