// Issue 30: a SIGHUP reload builds the configuration exactly as a start does and never writes the file back.
// Every combination of the two key forms before and after, with an addition, a removal and a rename, is
// compared with a restart on the same file (a fresh ConfigStore from loadConfig, which is what a start builds).
import { describe, expect, test } from "bun:test";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ConfigStore } from "../../src/config/store";
import { loadConfig } from "../../src/config/load";
import type { Config } from "../../src/config/schema";
import type { AppContext } from "../../src/context";
import { reloadConfigFile } from "../../src/cli/reload";
import { scratchDir } from "../helpers/scratch";

type Form = "keys" | "api_keys" | "both";

/** The keys written in one form (`both`: the two forms agree, as the gateway itself writes them). */
function file(form: Form, keys: string[], extra: Config = {}): Config {
  const records = keys.map((key, i) => ({ key, name: `n${i}`, remark: "" }));
  if (form === "keys") return { keys, ...extra };
  if (form === "api_keys") return { api_keys: records, ...extra };
  return { keys, api_keys: records, ...extra };
}

const CHANGES: Record<string, { before: string[]; after: string[] }> = {
  addition: { before: ["k1", "k2"], after: ["k1", "k2", "k3"] },
  removal: { before: ["k1", "k2", "k3"], after: ["k1", "k3"] },
  rename: { before: ["k1", "k2"], after: ["k1", "k2-renamed"] },
};

interface Started {
  path: string;
  store: ConfigStore;
  ctx: AppContext;
  reset: string[];
}

/** A gateway's config as a start builds it from `text` at a file path, with the parts a reload touches. */
async function start(text: string): Promise<Started> {
  const path = join(scratchDir("svc-reload-unit-"), "config.json");
  writeFileSync(path, text);
  const loaded = await loadConfig({ configPath: path, env: {} });
  const store = ConfigStore.fromLoaded(loaded);
  const reset: string[] = [];
  const ctx = { config: store, pool: { reconfigure() {} }, accounts: { resetStatus: (id: string) => reset.push(id) } } as unknown as AppContext;
  return { path, store, ctx, reset };
}

/** What a restart on the file at `path` would hold. */
async function restart(path: string): Promise<ConfigStore> {
  return ConfigStore.fromLoaded(await loadConfig({ configPath: path, env: {} }), { path: null });
}

const authenticating = (store: ConfigStore, candidates: string[]) => candidates.filter((k) => store.isManagedKey(k));

describe("SIGHUP reload equals a restart", () => {
  const forms: Form[] = ["keys", "api_keys", "both"];
  for (const [change, { before, after }] of Object.entries(CHANGES))
    for (const from of forms)
      for (const to of forms)
        test(`${change}: ${from} → ${to}`, async () => {
          const g = await start(JSON.stringify(file(from, before)));
          const text = JSON.stringify(file(to, after), null, 1);
          writeFileSync(g.path, text);
          const r = await reloadConfigFile(g.ctx);
          expect(r).toEqual({ reloaded: true, path: g.path });
          const all = [...new Set([...before, ...after])];
          expect(authenticating(g.store, all)).toEqual(after);
          const fresh = await restart(g.path);
          expect(g.store.get()).toEqual(fresh.get());
          expect(g.store.managedKeys().sort()).toEqual(fresh.managedKeys().sort());
          expect(g.store.configHash()).toBe(fresh.configHash());
          // Never written back: the operator's bytes stay as they were.
          await g.store.flush();
          expect(readFileSync(g.path, "utf8")).toBe(text);
        });

  test("the two forms disagreeing: a reload holds their union, as a start does", async () => {
    const g = await start(JSON.stringify({ keys: ["k1"] }));
    const text = JSON.stringify({ keys: ["k1", "k2"], api_keys: [{ key: "k3", name: "three" }] });
    writeFileSync(g.path, text);
    expect((await reloadConfigFile(g.ctx)).reloaded).toBe(true);
    expect(authenticating(g.store, ["k1", "k2", "k3"])).toEqual(["k1", "k2", "k3"]);
    expect(g.store.get()).toEqual((await restart(g.path)).get());
    expect(readFileSync(g.path, "utf8")).toBe(text);
  });

  test("accounts and proxies are replaced as a start reads them; a changed password makes that account untested again", async () => {
    const g = await start(
      JSON.stringify({ keys: ["k1"], proxies: [{ id: "p1", type: "http", host: "127.0.0.1", port: 8080 }], accounts: [{ email: "a@x.test", password: "pa" }, { email: "b@x.test", password: "pb", proxy_id: "p1" }] }),
    );
    const text = JSON.stringify({ keys: ["k1"], accounts: [{ email: "b@x.test", password: "pb-new" }, { email: "c@x.test", password: "pc" }] });
    writeFileSync(g.path, text);
    expect((await reloadConfigFile(g.ctx)).reloaded).toBe(true);
    expect(g.store.get()).toEqual((await restart(g.path)).get());
    expect((g.store.get().accounts ?? []).map((a) => a.email)).toEqual(["b@x.test", "c@x.test"]);
    expect(g.store.get().proxies).toBeUndefined();
    expect(g.reset).toEqual(["b@x.test"]);
    expect(readFileSync(g.path, "utf8")).toBe(text);
  });

  test("a reload runs the listeners with the previous and the next config (hot settings, pool limits)", async () => {
    const g = await start(JSON.stringify({ keys: ["k1"], runtime: { account_max_inflight: 2 } }));
    const seen: [number | null | undefined, number | null | undefined][] = [];
    g.store.onChange((next, prev) => seen.push([prev.runtime?.account_max_inflight, next.runtime?.account_max_inflight]));
    writeFileSync(g.path, JSON.stringify({ keys: ["k1"], runtime: { account_max_inflight: 5 } }));
    expect((await reloadConfigFile(g.ctx)).reloaded).toBe(true);
    expect(seen).toEqual([[2, 5]]);
  });
});

describe("a reload refuses what a restart would not mean", () => {
  const refusals: [string, (path: string) => void, RegExp][] = [
    ["a 0-byte file", (p) => writeFileSync(p, ""), /is blank/],
    ["a whitespace-only file", (p) => writeFileSync(p, " \n\t\n"), /is blank/],
    ["a byte-order mark and nothing else", (p) => writeFileSync(p, "\uFEFF\n"), /is blank/],
    ["unparsable JSON", (p) => writeFileSync(p, '{"keys": ["k1",'), /invalid configuration: .*not valid JSON/],
    ["a schema violation", (p) => writeFileSync(p, JSON.stringify({ keys: ["k1"], runtime: { account_max_inflight: 0 } })), /invalid configuration: .*runtime\.account_max_inflight/],
    ["a deleted file", (p) => rmSync(p), /is missing/],
  ];
  for (const [name, spoil, reason] of refusals)
    test(`${name}: refused with the reason, running config kept, nothing written`, async () => {
      const g = await start(JSON.stringify({ keys: ["k1", "k2"] }));
      const kept = g.store.get();
      spoil(g.path);
      const before = (() => {
        try {
          return readFileSync(g.path);
        } catch {
          return null;
        }
      })();
      const r = await reloadConfigFile(g.ctx);
      expect(r.reloaded).toBe(false);
      expect(r.reloaded ? "" : r.reason).toMatch(reason);
      expect(g.store.get()).toBe(kept);
      expect(authenticating(g.store, ["k1", "k2"])).toEqual(["k1", "k2"]);
      await g.store.flush();
      const after = (() => {
        try {
          return readFileSync(g.path);
        } catch {
          return null;
        }
      })();
      expect(after).toEqual(before);
    });

  test("the reason never quotes the file's content (a config holds secrets)", async () => {
    const g = await start(JSON.stringify({ keys: ["k1"] }));
    writeFileSync(g.path, '{"keys": ["sk-secret-value" oops]}');
    const r = await reloadConfigFile(g.ctx);
    expect(r.reloaded ? "" : r.reason).not.toContain("sk-secret-value");
  });
});
