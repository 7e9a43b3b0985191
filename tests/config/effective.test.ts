import { describe, expect, test } from "bun:test";
import {
  defaultPowWorkers,
  effectiveAutoDelete,
  effectiveEmbeddings,
  effectiveRelease,
  effectiveRuntime,
  effectiveUpstream,
} from "../../src/config/effective";
import { maskAccount, maskProxy, settingsView, tokenPreview } from "../../src/config/mask";
import { loadVectors } from "../helpers/vectors";

const accountsVectors = loadVectors("accounts.json");
const acc = (n: number) => Array.from({ length: n }, (_, i) => ({ email: `u${i}@x.io`, password: "p" }));

describe("effectiveRuntime (D8.4)", () => {
  test("defaults: account_max_inflight 2; limits computed from accounts × account_max_inflight", () => {
    expect(effectiveRuntime({ accounts: acc(3) })).toEqual({
      account_max_inflight: 2,
      global_max_inflight: 6,
      account_max_queue: 6,
      queue_wait_seconds: 60,
      token_refresh_interval_hours: 6,
      computed: { global_max_inflight: true, account_max_queue: true },
    });
  });

  test("matches accounts.json runtime_defaults", () => {
    const d = accountsVectors.runtime_defaults;
    const r = effectiveRuntime({});
    expect(r.account_max_inflight).toBe(d.account_max_inflight);
    expect(r.token_refresh_interval_hours).toBe(d.token_refresh_interval_hours);
  });

  test("recomputed when accounts or account_max_inflight change; null returns to computed", () => {
    expect(effectiveRuntime({ accounts: acc(5), runtime: { account_max_inflight: 4, global_max_inflight: null } }).global_max_inflight).toBe(20);
  });

  test("explicit values win and are flagged as not computed; 0 queue is kept (never wait)", () => {
    const r = effectiveRuntime({ accounts: acc(2), runtime: { global_max_inflight: 9, account_max_queue: 0 } });
    expect(r.global_max_inflight).toBe(9);
    expect(r.account_max_queue).toBe(0);
    expect(r.computed).toEqual({ global_max_inflight: false, account_max_queue: false });
  });
});

describe("other effective views", () => {
  test("auto_delete: explicit mode wins; legacy sessions:true means all", () => {
    expect(effectiveAutoDelete({})).toEqual({ mode: "none" });
    expect(effectiveAutoDelete({ auto_delete: { sessions: true } })).toEqual({ mode: "all" });
    expect(effectiveAutoDelete({ auto_delete: { sessions: true, mode: "single" } })).toEqual({ mode: "single" });
  });

  test("embeddings provider empty means unset", () => {
    expect(effectiveEmbeddings({ embeddings: { provider: "" } })).toEqual({ provider: null, dimensions: 256 });
  });

  test("release feed falls back to the environment (D15.2)", () => {
    expect(effectiveRelease({}, { SVC_RELEASE_FEED_URL: "https://e/x" })).toEqual({ feed_url: "https://e/x", feed_token: null });
    expect(effectiveRelease({ release: { feed_url: "https://c/y" } }, { SVC_RELEASE_FEED_URL: "https://e/x" }).feed_url).toBe("https://c/y");
  });

  test("upstream defaults of core-upstream.md §1; SVC_CORE_BASE_URL wins over the config", () => {
    const u = effectiveUpstream({ upstream: { base_url: "https://cfg.example", max_continue_rounds: 3 } }, { SVC_CORE_BASE_URL: "http://127.0.0.1:1" });
    expect(u.base_url).toBe("http://127.0.0.1:1");
    expect(u.max_continue_rounds).toBe(3);
    expect(u.pow_header).toBe("x-core-pow-response");
    expect(u.pow_algorithm).toBe("CoreHashV1");
    expect(u.user_agent).toBe("CoreApp/2.0.4 Android/35");
    expect(u.request_timeout_ms).toBe(60000);
    expect(u.stream_idle_timeout_ms).toBe(300000);
    expect(u.file_poll_timeout_ms).toBe(65000);
    expect(effectiveUpstream({}).base_url).toBeNull();
  });

  test("pow_workers default: CPUs − 1, between 1 and 4", () => {
    expect(defaultPowWorkers(1)).toBe(1);
    expect(defaultPowWorkers(3)).toBe(2);
    expect(defaultPowWorkers(64)).toBe(4);
  });
});

describe("masked views (D2.8)", () => {
  test("token_preview: first 4 + **** + last 4 from 12 characters, else ****", () => {
    expect(tokenPreview("abcdefghijkl")).toBe("abcd****ijkl");
    expect(tokenPreview("abcdefghijk")).toBe("****");
    expect(tokenPreview("")).toBe("");
  });

  test("maskAccount carries no secret", () => {
    const m = maskAccount({ email: "A@x.io", password: "pw-secret", token: "tok-secret-0123456789", name: "n" });
    expect(m).toEqual({
      identifier: "a@x.io",
      email: "A@x.io",
      mobile: "",
      name: "n",
      remark: "",
      has_password: true,
      has_token: true,
      token_preview: "tok-****6789",
      proxy_id: "",
    });
    expect(JSON.stringify(m)).not.toContain("pw-secret");
  });

  test("maskProxy: default name host:port, has_password, account_count", () => {
    const m = maskProxy({ id: "p1", type: "http", host: "h", port: 3128, password: "s" }, [{ email: "a@b.c", proxy_id: "p1" }, { email: "c@d.e" }]);
    expect(m).toEqual({ id: "p1", name: "h:3128", type: "http", host: "h", port: 3128, username: "", has_password: true, account_count: 1 });
  });

  test("settingsView shows effective values and no secrets", () => {
    const v = settingsView(
      { admin: { password_hash: "$argon2id$secret" }, release: { feed_url: "https://f/x", feed_token: "ft-secret" }, accounts: acc(2) },
      { default_password_warning: false },
    );
    expect(v.admin).toEqual({ has_password_hash: true, jwt_expire_hours: 24, jwt_valid_after_unix: null, default_password_warning: false });
    expect(v.runtime.global_max_inflight).toBe(4);
    expect(v.release).toEqual({ feed_url: "https://f/x", has_feed_token: true });
    expect(v.current_input_file).toEqual({ enabled: true, min_chars: 100000 });
    const text = JSON.stringify(v);
    expect(text).not.toContain("secret");
  });
});
