import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ConfigStore, ENV_BACKED_WARNING, InvalidConfigError, configHash } from "../../src/config/store";
import { atomicWriteFile, CoalescingWriter } from "../../src/config/persist";
import { GatewayError } from "../../src/util/gateway-error";
import { loadConfig } from "../../src/config/load";
import { scratchDir } from "../helpers/scratch";

let dir: string;
let path: string;
beforeEach(() => {
  dir = scratchDir("svc-store-");
  path = join(dir, "config.json");
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const onDisk = () => JSON.parse(readFileSync(path, "utf8"));

describe("ConfigStore.update", () => {
  test("applies a mutation, persists it and reports config_writable", async () => {
    const store = new ConfigStore({ config: {}, path });
    const r = await store.update((c) => {
      c.runtime = { account_max_inflight: 5 };
    });
    expect(r).toEqual({ config_writable: true });
    expect(store.get().runtime?.account_max_inflight).toBe(5);
    expect(onDisk()).toEqual({ runtime: { account_max_inflight: 5 } });
  });

  test("a mutator may return a new object instead", async () => {
    const store = new ConfigStore({ config: { keys: ["a"] }, path });
    await store.update(() => ({ chat_history: { limit: 3 } }));
    expect(store.get()).toEqual({ chat_history: { limit: 3 } });
  });

  test("an invalid result throws a 400 naming the field and changes nothing", async () => {
    const store = new ConfigStore({ config: { runtime: { account_max_inflight: 2 } }, path });
    const err = await store
      .update((c) => {
        c.runtime = { account_max_inflight: 0 };
      })
      .catch((e) => e);
    expect(err).toBeInstanceOf(InvalidConfigError);
    expect(err).toBeInstanceOf(GatewayError);
    expect(err.status).toBe(400);
    expect(err.message).toBe("runtime.account_max_inflight: must be an integer between 1 and 256 (got 0)");
    expect(err.field).toBe("runtime.account_max_inflight");
    expect(store.get()).toEqual({ runtime: { account_max_inflight: 2 } });
    expect(existsSync(path)).toBe(false);
  });

  test("a throwing mutator leaves the state unchanged and later updates still run", async () => {
    const store = new ConfigStore({ config: {}, path });
    await expect(
      store.update((c) => {
        c.chat_history = { limit: 1 };
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    expect(store.get()).toEqual({});
    await store.update((c) => {
      c.chat_history = { limit: 2 };
    });
    expect(store.get().chat_history?.limit).toBe(2);
  });

  test("100 concurrent updates are all applied, with writes coalesced", async () => {
    let writes = 0;
    const counting = new CoalescingWriter(path, {
      writeFile: async (p, data, o) => {
        writes++;
        await Bun.sleep(2);
        await atomicWriteFile(p, data, o);
      },
    });
    const store = new ConfigStore({ config: {}, path, writer: counting });
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        store.update(async (c) => {
          // An await inside the mutator would let a racing update read stale state if updates were not serialised.
          await Bun.sleep(0);
          c.api_keys = [...(c.api_keys ?? []), { key: `key-${i}`, name: "", remark: "" }];
        }),
      ),
    );
    expect(results.every((r) => r.config_writable)).toBe(true);
    expect(store.managedKeyCount()).toBe(100);
    expect(onDisk().api_keys.length).toBe(100);
    expect(onDisk().keys).toEqual(Array.from({ length: 100 }, (_, i) => `key-${i}`));
    expect(writes).toBeLessThan(100);
  });

  test("an unwritable path keeps the change in memory and reports the path and code (D2.4)", async () => {
    writeFileSync(join(dir, "file"), "x");
    const bad = join(dir, "file", "config.json");
    const store = new ConfigStore({ config: {}, path: bad });
    const r = await store.update((c) => {
      c.chat_history = { limit: 7 };
    });
    expect(r.config_writable).toBe(false);
    expect(r.config_warning).toContain(bad);
    expect(r.config_warning).toMatch(/ENOTDIR|EEXIST/);
    expect(store.get().chat_history?.limit).toBe(7);
    expect(store.writeStatus()).toEqual(r);
  });

  test("env-backed: memory only, with the D2.2 warning", async () => {
    const store = new ConfigStore({ config: {}, path, envBacked: true });
    expect(store.writeStatus()).toEqual({ config_writable: false, config_warning: ENV_BACKED_WARNING });
    const r = await store.update((c) => {
      c.chat_history = { limit: 1 };
    });
    expect(r).toEqual({ config_writable: false, config_warning: ENV_BACKED_WARNING });
    expect(existsSync(path)).toBe(false);
  });

  test("toolcall set by a mutator is dropped; unknown keys survive updates and the file", async () => {
    const store = new ConfigStore({ config: { custom: { a: [1, 2] } } as any, path });
    await store.update((c) => {
      (c as any).toolcall = { x: 1 };
      c.chat_history = { limit: 4 };
    });
    expect(onDisk()).toEqual({ custom: { a: [1, 2] }, chat_history: { limit: 4 } });
  });

  test("get() is frozen so only update() can change it", () => {
    const store = new ConfigStore({ config: { runtime: { account_max_inflight: 2 } }, path: null });
    expect(() => {
      (store.get().runtime as any).account_max_inflight = 9;
    }).toThrow();
  });
});

describe("listeners", () => {
  test("onChange gets next and previous; unsubscribe stops it; a throwing listener does not break updates", async () => {
    const errors: unknown[] = [];
    const store = new ConfigStore({ config: {}, path: null, onListenerError: (e) => errors.push(e) });
    const seen: [unknown, unknown][] = [];
    const off = store.onChange((next, prev) => seen.push([next.chat_history?.limit, prev.chat_history?.limit]));
    store.subscribe(() => {
      throw new Error("listener bug");
    });
    await store.update((c) => {
      c.chat_history = { limit: 1 };
    });
    off();
    await store.update((c) => {
      c.chat_history = { limit: 2 };
    });
    expect(seen).toEqual([[1, undefined]]);
    expect(errors.length).toBe(2);
    expect(store.get().chat_history?.limit).toBe(2);
  });
});

describe("managed keys (D2.7, D5.2)", () => {
  test("keys ∪ api_keys, with keys rewritten from api_keys", () => {
    const store = new ConfigStore({ config: { keys: ["legacy"], api_keys: [{ key: "rec", name: "n" }] }, path: null });
    expect(store.get().keys).toEqual(["rec", "legacy"]);
    expect(store.get().api_keys?.map((r) => r.key)).toEqual(["rec", "legacy"]);
    expect(store.isManagedKey("legacy")).toBe(true);
    expect(store.isManagedKey("rec")).toBe(true);
    expect(store.isManagedKey("other")).toBe(false);
    expect(store.isManagedKey("")).toBe(false);
    expect(store.managedKeyCount()).toBe(2);
  });

  test("removing a key from either form removes it from both", async () => {
    const store = new ConfigStore({ config: { api_keys: [{ key: "a" }, { key: "b" }, { key: "c" }] }, path: null });
    await store.update((c) => {
      c.api_keys = c.api_keys!.filter((r) => r.key !== "a");
    });
    expect(store.get().keys).toEqual(["b", "c"]);
    await store.update((c) => {
      c.keys = c.keys!.filter((k) => k !== "b");
    });
    expect(store.get().api_keys?.map((r) => r.key)).toEqual(["c"]);
    expect(store.isManagedKey("a")).toBe(false);
    expect(store.isManagedKey("b")).toBe(false);
  });

  test("a key added to the legacy list becomes a record", async () => {
    const store = new ConfigStore({ config: {}, path: null });
    await store.update((c) => {
      c.keys = ["new-key"];
    });
    expect(store.get().api_keys).toEqual([{ key: "new-key", name: "", remark: "" }]);
    expect(store.isManagedKey("new-key")).toBe(true);
  });

  test("a duplicate api key record is rejected", async () => {
    const store = new ConfigStore({ config: { api_keys: [{ key: "a" }] }, path: null });
    await expect(store.update((c) => void c.api_keys!.push({ key: "a" }))).rejects.toBeInstanceOf(InvalidConfigError);
  });
});

describe("configHash", () => {
  test("stable between changes, equal to configHash(get()), changes with a setting but not with a token", async () => {
    const store = new ConfigStore({ config: { accounts: [{ email: "a@b.c", password: "p" }] }, path: null });
    const h1 = store.configHash();
    expect(store.configHash()).toBe(h1);
    expect(h1).toBe(configHash(store.get()));
    await store.update((c) => {
      c.accounts![0]!.token = "fresh-login-token";
    });
    expect(store.configHash()).toBe(h1);
    await store.update((c) => {
      c.chat_history = { limit: 9 };
    });
    expect(store.configHash()).not.toBe(h1);
  });
});

describe("ConfigStore.fromLoaded", () => {
  test("an env-backed load gives an env-backed store", async () => {
    const loaded = await loadConfig({ configPath: path, env: { SVC_CONFIG_JSON: '{"keys":["k"]}' } });
    const store = ConfigStore.fromLoaded(loaded);
    expect(store.envBacked).toBe(true);
    expect(store.isManagedKey("k")).toBe(true);
    expect((await store.update(() => {})).config_writable).toBe(false);
  });

  test("a file load writes back to the same path; flush waits for it", async () => {
    writeFileSync(path, JSON.stringify({ keys: ["k"] }));
    const store = ConfigStore.fromLoaded(await loadConfig({ configPath: path, env: {} }));
    void store.update((c) => {
      c.chat_history = { limit: 1 };
    });
    await store.flush();
    // A write that does not touch the keys leaves the operator's key form as written (file-edit.ts).
    expect(onDisk()).toEqual({ keys: ["k"], chat_history: { limit: 1 } });
  });
});
