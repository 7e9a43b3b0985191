import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { readFileSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { ConfigError, loadConfig, type LoadOptions } from "../../src/config/load";
import { decodeBase64Text, parseEnvBoolean } from "../../src/config/env-config";
import { scratchDir } from "../helpers/scratch";

let dir: string;
beforeEach(() => {
  dir = scratchDir("svc-load-");
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const SAMPLE = { keys: ["k1"], runtime: { account_max_inflight: 3 }, custom_section: { kept: true } };
const b64 = (s: string) => Buffer.from(s).toString("base64");
const b64url = (s: string) => Buffer.from(s).toString("base64url"); // URL-safe, no padding

async function loadError(opts: LoadOptions): Promise<ConfigError> {
  try {
    await loadConfig(opts);
  } catch (e) {
    if (e instanceof ConfigError) return e;
    throw e;
  }
  throw new Error("expected a ConfigError");
}

describe("file source (D2.1)", () => {
  test("--config wins over SVC_CONFIG_PATH", async () => {
    writeFileSync(join(dir, "a.json"), JSON.stringify(SAMPLE));
    writeFileSync(join(dir, "b.json"), JSON.stringify({ keys: ["other"] }));
    const r = await loadConfig({ configPath: join(dir, "a.json"), env: { SVC_CONFIG_PATH: join(dir, "b.json") } });
    expect(r.config).toEqual(SAMPLE as any);
    expect(r.path).toBe(join(dir, "a.json"));
    expect(r.source).toBe(`file ${join(dir, "a.json")}`);
    expect(r).toMatchObject({ env_backed: false, env_source_present: false, env_writeback_enabled: false, data_dir: dir });
  });

  test("SVC_CONFIG_PATH, then ./config.json relative to the working directory", async () => {
    writeFileSync(join(dir, "b.json"), JSON.stringify({ keys: ["b"] }));
    expect((await loadConfig({ env: { SVC_CONFIG_PATH: join(dir, "b.json") } })).config.keys).toEqual(["b"]);
    writeFileSync(join(dir, "config.json"), JSON.stringify({ keys: ["c"] }));
    const r = await loadConfig({ env: {}, cwd: dir });
    expect(r.path).toBe(join(dir, "config.json"));
    expect(r.config.keys).toEqual(["c"]);
  });

  test("a missing file is an empty config", async () => {
    const r = await loadConfig({ configPath: join(dir, "none.json"), env: {} });
    expect(r.config).toEqual({});
    expect(r.source).toContain("missing");
  });

  test("SVC_DATA_DIR overrides the data directory", async () => {
    const r = await loadConfig({ configPath: join(dir, "none.json"), env: { SVC_DATA_DIR: "/var/data" } });
    expect(r.data_dir).toBe("/var/data");
  });

  test("broken JSON: one line naming the file, without echoing content", async () => {
    const path = join(dir, "config.json");
    writeFileSync(path, '{"keys": ["sk-secret-value",]');
    const e = await loadError({ configPath: path, env: {} });
    expect(e.message.startsWith(`file ${path}: is not valid JSON`)).toBe(true);
    expect(e.message).not.toContain("\n");
    expect(e.message).not.toContain("sk-secret-value");
  });

  test("schema violation: names the source and the field", async () => {
    const path = join(dir, "config.json");
    writeFileSync(path, JSON.stringify({ runtime: { queue_wait_seconds: 0 } }));
    const e = await loadError({ configPath: path, env: {} });
    expect(e.message).toBe(`file ${path}: runtime.queue_wait_seconds: must be an integer between 1 and 3600 (got 0)`);
    expect(e.field).toBe("runtime.queue_wait_seconds");
  });

  test("an unreadable path (a directory) is a ConfigError with the OS code", async () => {
    const e = await loadError({ configPath: dir, env: {} });
    expect(e.message).toContain("EISDIR");
  });

  test("toolcall is dropped and unknown keys kept", async () => {
    const path = join(dir, "config.json");
    writeFileSync(path, JSON.stringify({ ...SAMPLE, toolcall: { mode: "x" } }));
    expect((await loadConfig({ configPath: path, env: {} })).config).toEqual(SAMPLE as any);
  });
});

describe("SVC_CONFIG_JSON (D2.1, D2.2)", () => {
  const json = JSON.stringify(SAMPLE);
  const cases: [string, string, string][] = [
    ["raw JSON", json, "raw JSON"],
    ["raw JSON with spaces and surrounding quotes", `  '${json}'  `, "raw JSON"],
    ["standard Base64 with padding", b64(json), "Base64"],
    ["standard Base64 without padding", b64(json).replace(/=+$/, ""), "Base64"],
    ["URL-safe Base64 without padding", b64url(json), "Base64"],
    ["Base64 in double quotes", `"${b64(json)}"`, "Base64"],
  ];
  for (const [name, value, kind] of cases) {
    test(name, async () => {
      const r = await loadConfig({ configPath: join(dir, "config.json"), env: { SVC_CONFIG_JSON: value } });
      expect(r.config).toEqual(SAMPLE as any);
      expect(r.source).toBe(`SVC_CONFIG_JSON (${kind})`);
      expect(r).toMatchObject({ env_backed: true, env_source_present: true, env_writeback_enabled: false });
      expect(existsSync(join(dir, "config.json"))).toBe(false);
    });
  }

  test("URL-safe alphabet characters decode (- and _)", () => {
    // bytes chosen so that the standard encoding contains + and /
    const text = '{"k":"\u00ff\u00fe>?"}';
    const url = Buffer.from(text).toString("base64url");
    expect(url).toMatch(/[-_]/);
    expect(decodeBase64Text(url)).toBe(text);
  });

  test("env wins over an existing file without write-back", async () => {
    writeFileSync(join(dir, "config.json"), JSON.stringify({ keys: ["file"] }));
    const r = await loadConfig({ configPath: join(dir, "config.json"), env: { SVC_CONFIG_JSON: json } });
    expect(r.config.keys).toEqual(["k1"]);
  });

  test("an empty SVC_CONFIG_JSON is ignored", async () => {
    writeFileSync(join(dir, "config.json"), JSON.stringify({ keys: ["file"] }));
    const r = await loadConfig({ configPath: join(dir, "config.json"), env: { SVC_CONFIG_JSON: "   " } });
    expect(r.config.keys).toEqual(["file"]);
    expect(r.env_source_present).toBe(false);
  });

  test("bad Base64 → ConfigError naming SVC_CONFIG_JSON", async () => {
    const e = await loadError({ env: { SVC_CONFIG_JSON: "not*base64!" }, configPath: join(dir, "c.json") });
    expect(e.message).toBe('SVC_CONFIG_JSON: is neither raw JSON (it does not start with "{") nor Base64 (it is not valid Base64 (standard or URL-safe))');
    const t = await loadError({ env: { SVC_CONFIG_JSON: "abcde" }, configPath: join(dir, "c.json") });
    expect(t.message).toContain("truncated");
  });

  test("plain text says both readings failed and why (issue 33)", async () => {
    const e = await loadError({ env: { SVC_CONFIG_JSON: "not json" }, configPath: join(dir, "c.json") });
    expect(e.message).toBe('SVC_CONFIG_JSON: is neither raw JSON (it does not start with "{") nor Base64 (it decodes from Base64 to bytes that are not UTF-8 text)');
    const arr = await loadError({ env: { SVC_CONFIG_JSON: "[1,2]" }, configPath: join(dir, "c.json") });
    expect(arr.message).toContain("neither raw JSON");
    const raw = await loadError({ env: { SVC_CONFIG_JSON: "{nope" }, configPath: join(dir, "c.json") });
    expect(raw.message.startsWith("SVC_CONFIG_JSON (raw JSON): is not valid JSON")).toBe(true);
  });

  test("Base64 of non-JSON → invalid JSON from the Base64 source", async () => {
    const e = await loadError({ env: { SVC_CONFIG_JSON: b64("hello") }, configPath: join(dir, "c.json") });
    expect(e.message.startsWith("SVC_CONFIG_JSON (Base64): is not valid JSON")).toBe(true);
  });

  test("schema violation in the env config names source and field", async () => {
    const e = await loadError({ env: { SVC_CONFIG_JSON: b64url(JSON.stringify({ chat_history: { limit: 5000 } })) }, configPath: join(dir, "c.json") });
    expect(e.message).toBe("SVC_CONFIG_JSON (Base64): chat_history.limit: must be an integer between 0 and 1000 (got 5000)");
  });

  test("a JSON array is rejected", async () => {
    const e = await loadError({ env: { SVC_CONFIG_JSON: b64("[1,2]") }, configPath: join(dir, "c.json") });
    expect(e.message).toBe("SVC_CONFIG_JSON (Base64): (root): must be a JSON object");
  });
});

describe("SVC_ENV_WRITEBACK (D2.2)", () => {
  const json = JSON.stringify(SAMPLE);

  test("without a file: the env config is written to the path and the store is file-backed", async () => {
    const path = join(dir, "config.json");
    const r = await loadConfig({ configPath: path, env: { SVC_CONFIG_JSON: json, SVC_ENV_WRITEBACK: "1" } });
    expect(r).toMatchObject({ env_backed: false, env_source_present: true, env_writeback_enabled: true });
    expect(r.initial_write).toEqual({ writable: true });
    expect(JSON.parse(readFileSync(path, "utf8"))).toEqual(SAMPLE);
  });

  test("a valid file wins over the env value", async () => {
    const path = join(dir, "config.json");
    writeFileSync(path, JSON.stringify({ keys: ["edited"] }));
    const r = await loadConfig({ configPath: path, env: { SVC_CONFIG_JSON: json, SVC_ENV_WRITEBACK: "true" } });
    expect(r.config.keys).toEqual(["edited"]);
    expect(r.source).toBe(`file ${path}`);
    expect(r.env_backed).toBe(false);
  });

  test("an invalid file is replaced by the env config, with a warning", async () => {
    const path = join(dir, "config.json");
    writeFileSync(path, "{broken");
    const r = await loadConfig({ configPath: path, env: { SVC_CONFIG_JSON: json, SVC_ENV_WRITEBACK: "yes" } });
    expect(r.config).toEqual(SAMPLE as any);
    expect(r.warnings.some((w) => w.includes("replacing it with SVC_CONFIG_JSON"))).toBe(true);
    expect(JSON.parse(readFileSync(path, "utf8"))).toEqual(SAMPLE);
  });

  test("an unwritable path is reported, not thrown", async () => {
    writeFileSync(join(dir, "file"), "x");
    const path = join(dir, "file", "config.json");
    const r = await loadConfig({ configPath: path, env: { SVC_CONFIG_JSON: json, SVC_ENV_WRITEBACK: "on" } });
    expect(r.initial_write?.writable).toBe(false);
    expect(r.initial_write?.warning).toContain(path);
  });

  test("an unrecognised value means off plus a warning (D0.5)", async () => {
    const r = await loadConfig({ configPath: join(dir, "c.json"), env: { SVC_CONFIG_JSON: json, SVC_ENV_WRITEBACK: "maybe" } });
    expect(r.env_backed).toBe(true);
    expect(r.warnings).toEqual(["SVC_ENV_WRITEBACK: unrecognised boolean value; using the default (off)"]);
  });

  test("env booleans", () => {
    for (const v of ["1", "TRUE", "Yes", "on"]) expect(parseEnvBoolean("X", v, false).value).toBe(true);
    for (const v of ["0", "false", "NO", "Off"]) expect(parseEnvBoolean("X", v, true).value).toBe(false);
  });
});
