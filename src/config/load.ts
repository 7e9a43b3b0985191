// Where the configuration comes from at start (D2.1, D2.2, D1.6) and what that means for writes.
// An invalid config is one ConfigError line naming the source and the field; the CLI exits 2 (D2.5).
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { validateConfig } from "./validate";
import type { Config } from "./schema";
import { parseCidrList, splitCidrEnv } from "../util/cidr";
import { decodeEnvConfig, EnvDecodeError, parseEnvBoolean } from "./env-config";
import { atomicWriteFile, describeWriteError, errorCode, removeStaleTempFiles, serialiseConfig, type WriteResult } from "./persist";

type Env = Record<string, string | undefined>;

export class ConfigError extends Error {
  /** Where the config came from, e.g. `SVC_CONFIG_JSON (Base64)` or `file /srv/config.json`. */
  readonly source: string;
  /** Dotted path of the failing field, when one is at fault. */
  readonly field?: string;
  constructor(source: string, problem: string, field?: string) {
    super(`${source}: ${field ? `${field}: ` : ""}${problem}`);
    this.name = "ConfigError";
    this.source = source;
    this.field = field;
  }
}

export interface LoadOptions {
  /** `--config`; wins over SVC_CONFIG_PATH. */
  configPath?: string;
  env?: Env;
  /** Base for a relative config path; defaults to the working directory. */
  cwd?: string;
}

export interface LoadedConfig {
  config: Config;
  /** Human description of the source, for the startup log line and errors. */
  source: string;
  /** Absolute config path: where writes go (also in env-backed mode, for write-back and export hints). */
  path: string;
  /** SVC_DATA_DIR, else the folder of the config path (D1.6). */
  data_dir: string;
  /** Writes stay in memory (SVC_CONFIG_JSON without write-back, D2.2). */
  env_backed: boolean;
  env_source_present: boolean;
  env_writeback_enabled: boolean;
  /** Non-fatal notes for the log (e.g. an unrecognised SVC_ENV_WRITEBACK value). */
  warnings: string[];
  /** The file was missing or blank, so `config` is the empty one (a start accepts that; a reload refuses it). */
  empty?: "missing" | "blank";
  /** Write-back mode that seeded the file from the env: how that first write went. */
  initial_write?: WriteResult;
}

/** Parses JSON without echoing the input: parser messages can quote fragments, and a config holds secrets. */
function parseJson(text: string, source: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    const msg = (e as Error).message.replace(/"[^"]*"|'[^']*'/g, "…");
    throw new ConfigError(source, `is not valid JSON (${msg})`);
  }
}

function check(raw: unknown, source: string): Config {
  const r = validateConfig(raw);
  if (!r.ok) throw new ConfigError(source, r.problem, r.field);
  return r.config;
}

type FileRead = { state: "missing" } | { state: "ok"; text: string };

async function readConfigFile(path: string, source: string): Promise<FileRead> {
  try {
    // Synchronous: node:fs/promises is not loaded at start (util/fs-promises.ts); a config file is small.
    return { state: "ok", text: readFileSync(path, "utf8") };
  } catch (e) {
    if (errorCode(e) === "ENOENT") return { state: "missing" };
    throw new ConfigError(source, `cannot be read (${errorCode(e)})`);
  }
}

// A blank file is treated like a missing one: `touch config.json` is a common first step.
function fileConfig(read: { text: string }, source: string): Config {
  return isBlank(read.text) ? {} : check(parseJson(read.text.replace(/^\uFEFF/, ""), source), source);
}

const isBlank = (text: string) => text.replace(/^\uFEFF/, "").trim() === "";

export function resolveConfigPath(opts: LoadOptions): string {
  const env = opts.env ?? process.env;
  const chosen = opts.configPath || env.SVC_CONFIG_PATH || "./config.json";
  return resolve(opts.cwd ?? process.cwd(), chosen);
}

export async function loadConfig(opts: LoadOptions = {}): Promise<LoadedConfig> {
  const env = opts.env ?? process.env;
  const path = resolveConfigPath(opts);
  const data_dir = env.SVC_DATA_DIR ? resolve(opts.cwd ?? process.cwd(), env.SVC_DATA_DIR) : dirname(path);
  const warnings: string[] = [];
  const wb = parseEnvBoolean("SVC_ENV_WRITEBACK", env.SVC_ENV_WRITEBACK, false);
  if (wb.warning) warnings.push(wb.warning);
  const proxies = env.SVC_TRUSTED_PROXIES;
  if (proxies !== undefined && proxies.trim() !== "") {
    const parsed = parseCidrList(splitCidrEnv(proxies));
    if (!parsed.ok) throw new ConfigError("SVC_TRUSTED_PROXIES", `entry ${parsed.index + 1} ${parsed.problem}`);
  }
  const envValue = env.SVC_CONFIG_JSON;
  const envPresent = envValue !== undefined && envValue.trim() !== "";
  const fileSource = `file ${path}`;
  const base = { path, data_dir, env_source_present: envPresent, env_writeback_enabled: wb.value, warnings };

  // Temp files of a process that crashed mid-write are only litter; the target itself is whole (D2.3).
  if (!envPresent || wb.value) {
    const removed = await removeStaleTempFiles(path);
    if (removed.length) warnings.push(`removed ${removed.length} temp file(s) left by an interrupted write next to ${path}`);
  }

  if (!envPresent) {
    const read = await readConfigFile(path, fileSource);
    if (read.state === "missing") return { ...base, config: {}, source: `${fileSource} (missing: empty config)`, env_backed: false, empty: "missing" };
    return { ...base, config: fileConfig(read, fileSource), source: fileSource, env_backed: false, ...(isBlank(read.text) ? { empty: "blank" as const } : {}) };
  }

  if (wb.value) {
    // Write-back: a valid file at the path holds newer edits than the env value, so it wins (D2.2).
    const read = await readConfigFile(path, fileSource).catch(() => ({ state: "missing" as const }));
    if (read.state === "ok") {
      try {
        return { ...base, config: fileConfig(read, fileSource), source: fileSource, env_backed: false };
      } catch (e) {
        if (!(e instanceof ConfigError)) throw e;
        warnings.push(`${e.message}; replacing it with SVC_CONFIG_JSON`);
      }
    }
  }

  const { config, source } = envConfig(envValue!);
  if (!wb.value) return { ...base, config, source, env_backed: true };

  let initial_write: WriteResult;
  try {
    await atomicWriteFile(path, serialiseConfig(config));
    initial_write = { writable: true };
  } catch (e) {
    initial_write = { writable: false, warning: describeWriteError(path, e) };
    warnings.push(initial_write.warning!);
  }
  return { ...base, config, source: `${source}, written back to ${path}`, env_backed: false, initial_write };
}

function envConfig(value: string): { config: Config; source: string } {
  let decoded;
  try {
    decoded = decodeEnvConfig(value);
  } catch (e) {
    if (e instanceof EnvDecodeError) throw new ConfigError("SVC_CONFIG_JSON", e.message);
    throw e;
  }
  const source = `SVC_CONFIG_JSON (${decoded.kind})`;
  return { config: check(parseJson(decoded.text, source), source), source };
}

