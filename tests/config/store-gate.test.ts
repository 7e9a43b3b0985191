// Issue 30: the gate a shared store puts before every committed change, replace() (SIGHUP) and adopt() (another
// instance's config). A refused change leaves memory, file and listeners untouched; a newer config is adopted
// and the change made again on top of it; replace() never writes the file.
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ConfigStore, configHash, type GateResult } from "../../src/config/store";
import type { Config } from "../../src/config/schema";
import { GatewayError } from "../../src/util/gateway-error";
import { scratchDir } from "../helpers/scratch";

const fresh = (config: Config = { keys: ["k0"] }) => {
  const path = join(scratchDir("svc-gate-"), "config.json");
  return { path, store: new ConfigStore({ config, path }) };
};
const onDisk = (path: string) => JSON.parse(readFileSync(path, "utf8")) as Config;
const addKey = (key: string) => (c: Config) => void (c.keys = [...(c.keys ?? []), key]);

describe("ConfigStore gate", () => {
  test("a refusing gate: the error reaches the caller; memory, file and listeners are untouched", async () => {
    const { path, store } = fresh();
    const before = store.get();
    let calls = 0;
    store.onChange(() => calls++);
    store.setGate(async () => {
      throw new GatewayError(503, "store_unavailable", "down", { retryAfter: 10 });
    });
    const err = await store.update(addKey("k1")).catch((e) => e);
    expect([err.status, err.code]).toEqual([503, "store_unavailable"]);
    expect(store.get()).toBe(before);
    expect(store.isManagedKey("k1")).toBe(false);
    expect(existsSync(path)).toBe(false);
    expect(calls).toBe(0);
    // The queue survives: once the gate lets it through, the next change lands.
    store.setGate(async (next) => ({ ok: true, config: { ...next, _config_version: 1 } }));
    await store.update(addKey("k2"));
    expect(onDisk(path)).toEqual(expect.objectContaining({ keys: ["k0", "k2"], _config_version: 1 }));
  });

  test("another instance wrote first: its config is adopted and the change made again on top of it", async () => {
    const { path, store } = fresh();
    const remote: Config = { keys: ["k0", "k-remote"], _config_version: 7 };
    const seen: Config[] = [];
    store.setGate(async (next, prev): Promise<GateResult> => {
      seen.push(next);
      if ((prev._config_version ?? 0) < 7) return { ok: false, newer: remote };
      return { ok: true, config: { ...next, _config_version: 8 } };
    });
    await store.update(addKey("k-mine"));
    expect(seen.map((c) => c.keys)).toEqual([["k0", "k-mine"], ["k0", "k-remote", "k-mine"]]);
    expect(store.get()).toEqual(expect.objectContaining({ keys: ["k0", "k-remote", "k-mine"], _config_version: 8 }));
    expect(onDisk(path)._config_version).toBe(8);
  });

  test("an update cannot move the version itself; only the gate does", async () => {
    const { store } = fresh({ keys: ["k0"], _config_version: 3 });
    await store.update((c) => ({ ...c, _config_version: 99 }));
    expect(store.get()._config_version).toBe(3);
  });

  test("replace() commits through the gate and never writes the file", async () => {
    const { path, store } = fresh();
    store.setGate(async (next) => ({ ok: true, config: { ...next, _config_version: 5 } }));
    await store.replace({ keys: ["k1", "k2"], api_keys: [{ key: "k1", name: "one" }] });
    expect(store.managedKeys().sort()).toEqual(["k1", "k2"]);
    expect(store.get()._config_version).toBe(5);
    await store.flush();
    expect(existsSync(path)).toBe(false);
  });

  test("adopt(): null keeps the config and writes nothing; a config is committed and written", async () => {
    const { path, store } = fresh();
    expect(await store.adopt(() => null)).toBeNull();
    expect(existsSync(path)).toBe(false);
    const r = await store.adopt((cur) => ({ ...cur, keys: ["k9"], _config_version: 2 }));
    expect(r).toEqual({ config_writable: true });
    expect(onDisk(path)).toEqual(expect.objectContaining({ keys: ["k9"], _config_version: 2 }));
  });

  test("another instance's config is validated here too: an invalid one is refused and nothing changes", async () => {
    const { path, store } = fresh();
    const before = store.get();
    const err = await store.adopt(() => ({ keys: ["k1"], runtime: { account_max_inflight: 0 }, _config_version: 3 })).catch((e) => e);
    expect(err.status).toBe(400);
    expect(store.get()).toBe(before);
    expect(existsSync(path)).toBe(false);
  });

  test("config_hash ignores the version: instances holding the same config agree", () => {
    expect(configHash({ keys: ["a"], _config_version: 1 })).toBe(configHash({ keys: ["a"], _config_version: 2 }));
  });
});
