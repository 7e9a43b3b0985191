import { describe, expect, test } from "bun:test";
import { validateConfig, accountProblem } from "../../src/config/validate";

function problem(raw: unknown) {
  const r = validateConfig(raw);
  if (r.ok) throw new Error("expected a validation failure");
  return `${r.field}: ${r.problem}`;
}

describe("validateConfig: accepted shapes", () => {
  test("an empty object is a valid config", () => {
    expect(validateConfig({})).toEqual({ ok: true, config: {} });
  });

  test("a full config with every section passes", () => {
    const r = validateConfig({
      keys: ["k1"],
      api_keys: [{ key: "k1", name: "a", remark: "" }],
      accounts: [{ email: "A@x.io", password: "p" }, { mobile: "13800138000", password: "p" }, { token: "t".repeat(20) }],
      proxies: [{ id: "p1", type: "socks5h", host: "10.0.0.1", port: 1080 }],
      model_aliases: { "my-model": "core-v4-pro-nothinking" },
      admin: { password_hash: "x", jwt_expire_hours: 720, jwt_valid_after_unix: 0 },
      runtime: { account_max_inflight: 4, global_max_inflight: null, account_max_queue: 0, queue_wait_seconds: 3600, token_refresh_interval_hours: 1 },
      responses: { store_ttl_seconds: 30, store_max_entries: 1_000_000 },
      embeddings: { provider: "", dimensions: 4096 },
      compat: { wide_input_strict_output: false, strip_reference_markers: true },
      auto_delete: { mode: "single", sessions: true },
      current_input_file: { enabled: false, min_chars: 0 },
      history_split: { enabled: true, whatever: 3 },
      chat_history: { limit: 0 },
      release: { feed_url: "https://code.example/repos/o/r/events", feed_token: "tok" },
      upstream: { base_url: "http://127.0.0.1:9000", pow_header: "x-core-pow-response", max_continue_rounds: 0, pow_workers: 2 },
      _host_sync_hash: "abc",
      _host_sync_time: 1767225600,
    });
    expect(r.ok).toBe(true);
  });

  test("null means unset for optional fields", () => {
    expect(validateConfig({ admin: { jwt_expire_hours: null }, release: null, accounts: [{ email: "a@b.c", password: "x", proxy_id: null }] }).ok).toBe(true);
  });

  test("unknown top-level and nested keys are kept", () => {
    const r = validateConfig({ future_feature: { a: 1 }, runtime: { later: true } });
    expect(r.ok && r.config).toEqual({ future_feature: { a: 1 }, runtime: { later: true } } as any);
  });

  test("a toolcall key is dropped on load (D2.6)", () => {
    const r = validateConfig({ toolcall: { mode: "feature_match" }, keys: ["a"] });
    expect(r.ok && r.config).toEqual({ keys: ["a"] });
  });

  test("the input object is not modified", () => {
    const raw = { toolcall: 1, proxies: [{ type: "HTTP", host: "h", port: "8080" }] };
    validateConfig(raw);
    expect(raw).toEqual({ toolcall: 1, proxies: [{ type: "HTTP", host: "h", port: "8080" }] });
  });

  test("proxies: type lower-cased, numeric string port stored as integer, missing id generated (D11.7, D0.2)", () => {
    const r = validateConfig({ proxies: [{ type: "SOCKS5", host: "h.example", port: "1080", username: "u" }] });
    if (!r.ok) throw new Error(r.problem);
    const p = r.config.proxies![0]!;
    expect(p.type).toBe("socks5");
    expect(p.port).toBe(1080);
    expect(p.id).toMatch(/^proxy_[0-9a-f]{12}$/);
  });
});

describe("validateConfig: one message naming the field (D2.5)", () => {
  test("top level must be an object", () => {
    expect(problem([])).toBe("(root): must be a JSON object");
    expect(problem("x")).toBe("(root): must be a JSON object");
  });

  test("wrong type names the dotted path", () => {
    expect(problem({ accounts: [{ email: "a@b.c", password: "x" }, { email: 5 }] })).toBe("accounts.1.email: must be a string (got 5)");
    expect(problem({ runtime: "fast" })).toBe("runtime: must be an object (got a string)");
  });

  test("missing required property", () => {
    expect(problem({ api_keys: [{ name: "no key" }] })).toBe("api_keys.0.key: is required");
  });

  test("enums list their values", () => {
    expect(problem({ auto_delete: { mode: "some" } })).toBe('auto_delete.mode: must be one of "none", "single", "all" (got a string)');
    expect(problem({ embeddings: { provider: "openai" } })).toBe('embeddings.provider: must be one of "mock", "deterministic", "builtin", "" (got a string)');
  });

  test("string values are never echoed (they may be secrets)", () => {
    const msg = problem({ keys: ["has space-supersecret"] });
    expect(msg).toBe("keys.0: must be a key of 1 to 256 characters with no whitespace (got a string)");
    expect(msg).not.toContain("supersecret");
  });
});

describe("validateConfig: ranges of D2.11", () => {
  const cases: [string, Record<string, unknown>, unknown, unknown][] = [
    ["admin.jwt_expire_hours", { admin: {} }, 1, 721],
    ["runtime.account_max_inflight", { runtime: {} }, 256, 0],
    ["runtime.queue_wait_seconds", { runtime: {} }, 3600, 3601],
    ["runtime.token_refresh_interval_hours", { runtime: {} }, 720, 0],
    ["responses.store_ttl_seconds", { responses: {} }, 86400, 29],
    ["responses.store_max_entries", { responses: {} }, 100, 1_000_001],
    ["embeddings.dimensions", { embeddings: {} }, 1, 4097],
    ["current_input_file.min_chars", { current_input_file: {} }, 100_000_000, -1],
    ["chat_history.limit", { chat_history: {} }, 1000, 1001],
    ["runtime.account_max_queue", { runtime: {} }, 0, 200_001],
    ["runtime.global_max_inflight", { runtime: {} }, 200_000, 0],
  ];
  for (const [path, shell, good, bad] of cases) {
    test(`${path}: ${good} accepted, ${bad} rejected`, () => {
      const [section, key] = path.split(".") as [string, string];
      const make = (v: unknown) => ({ ...shell, [section]: { [key]: v } });
      expect(validateConfig(make(good)).ok).toBe(true);
      const r = validateConfig(make(bad));
      expect(r.ok).toBe(false);
      if (!r.ok) {
        expect(r.field).toBe(path);
        expect(r.problem).toContain(`(got ${bad})`);
      }
    });
  }

  test("an integer range message states the bounds", () => {
    expect(problem({ runtime: { account_max_inflight: 0 } })).toBe("runtime.account_max_inflight: must be an integer between 1 and 256 (got 0)");
    expect(problem({ runtime: { account_max_inflight: 2.5 } })).toBe("runtime.account_max_inflight: must be an integer between 1 and 256 (got 2.5)");
  });

  test("global_max_inflight must be at least account_max_inflight (default 2)", () => {
    expect(problem({ runtime: { global_max_inflight: 1 } })).toBe("runtime.global_max_inflight: must be at least runtime.account_max_inflight (2) (got 1)");
    expect(validateConfig({ runtime: { global_max_inflight: 1, account_max_inflight: 1 } }).ok).toBe(true);
  });

  test("booleans must be booleans", () => {
    expect(problem({ compat: { strip_reference_markers: "yes" } })).toBe("compat.strip_reference_markers: must be a boolean (got a string)");
  });

  test("release.feed_url must be an absolute http(s) URL; empty means unset", () => {
    expect(problem({ release: { feed_url: "ftp://x/y" } })).toBe("release.feed_url: must be an absolute http or https URL");
    expect(problem({ release: { feed_url: "/relative" } })).toBe("release.feed_url: must be an absolute http or https URL");
    expect(validateConfig({ release: { feed_url: "" } }).ok).toBe(true);
  });

  test("model_aliases targets must be native ids (D6.2)", () => {
    expect(problem({ model_aliases: { mine: "gpt-4o" } })).toBe("model_aliases.mine: must name a native model id (core-v4-…)");
    expect(validateConfig({ model_aliases: { mine: "core-v4-flash-search-nothinking" } }).ok).toBe(true);
  });

  test("keys: 1–256 characters, no whitespace (D2.7)", () => {
    expect(validateConfig({ keys: ["x".repeat(256)] }).ok).toBe(true);
    expect(validateConfig({ keys: ["x".repeat(257)] }).ok).toBe(false);
    expect(validateConfig({ keys: [""] }).ok).toBe(false);
    expect(validateConfig({ api_keys: [{ key: "a\tb" }] }).ok).toBe(false);
  });

  test("duplicates: api keys, account identifiers (after normalisation), proxy ids", () => {
    expect(problem({ api_keys: [{ key: "a" }, { key: "a" }] })).toBe("api_keys.1.key: duplicates api_keys.0.key");
    expect(problem({ accounts: [{ email: "A@x.io ", password: "p" }, { email: "a@x.io", password: "q" }] })).toBe(
      "accounts.1: has the same identifier as accounts.0",
    );
    expect(problem({ accounts: [{ mobile: "138-0013-8000", password: "p" }, { mobile: "+8613800138000", password: "q" }] })).toBe(
      "accounts.1: has the same identifier as accounts.0",
    );
    expect(problem({ proxies: [{ id: "p", type: "http", host: "a", port: 1 }, { id: "p", type: "http", host: "b", port: 2 }] })).toBe(
      "proxies.1.id: duplicates proxies.0.id",
    );
  });

  test("proxies: port range, type, host without scheme", () => {
    expect(problem({ proxies: [{ type: "http", host: "h", port: 70000 }] })).toContain("proxies.0.port: must be an integer between 1 and 65535");
    expect(problem({ proxies: [{ type: "ftp", host: "h", port: 1 }] })).toContain("proxies.0.type: must be one of");
    expect(problem({ proxies: [{ type: "http", host: "http://h", port: 1 }] })).toContain("proxies.0.host:");
  });

  test("upstream section types are checked", () => {
    expect(problem({ upstream: { request_timeout_ms: 0 } })).toContain("upstream.request_timeout_ms: must be an integer between 1 and");
    expect(problem({ upstream: { base_url: "core.example" } })).toBe("upstream.base_url: must be an absolute http or https URL");
  });
});

describe("accountProblem (D8.1)", () => {
  test("password with email or mobile, or a token", () => {
    expect(accountProblem({ email: "a@b.c", password: "p" })).toBeNull();
    expect(accountProblem({ mobile: "13800138000", password: "p" })).toBeNull();
    expect(accountProblem({ token: "t" })).toBeNull();
    expect(accountProblem({ email: "a@b.c" })).toBe("needs a password (with the email or mobile) or a token");
    expect(accountProblem({ password: "p" })).toBe("needs an email, a mobile or a token");
  });
});
