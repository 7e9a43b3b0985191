// Leasing with account switching (D8.9, D8.10), driven with scripted attempts and a scripted pool: which failures
// move the request to another account, the one re-login, file mode, the three-account bound, pinning, and the
// lease given back on every failure.
import { afterEach, describe, expect, test } from "bun:test";
import { startOnAccounts, MAX_ACCOUNTS, switchesAccount, type Failover, type FailoverDeps } from "../../src/turn/account-failover";
import { TurnLife } from "../../src/turn/turn-life";
import { LoginFailedError } from "../../src/accounts/manager";
import { GatewayError } from "../../src/util/gateway-error";
import type { AttemptFn } from "../../src/turn/types";
import { coreFailure, scripted } from "./helpers";

const ACCOUNTS = ["a", "b", "c", "d"];
let lives: TurnLife[] = [];
afterEach(() => {
  for (const l of lives) l.deadline.disarm();
  lives = [];
});

interface Script {
  /** Per account, the failures of its attempts in order; an account with none left succeeds. */
  failures?: Record<string, unknown[]>;
  /** Per account, a login failure. */
  loginFails?: string[];
  fileModeAvailable?: boolean;
  hasCandidate?: boolean;
}

function setup(script: Script, opts: { mode?: "managed" | "passthrough"; pinned?: string } = {}) {
  const log: string[] = [];
  const attempts: Parameters<AttemptFn>[0][] = [];
  const failures = Object.fromEntries(Object.entries(script.failures ?? {}).map(([k, v]) => [k, [...v]]));
  const deps: FailoverDeps = {
    acquire: async ({ pinned, exclude }) => {
      const account = pinned ?? ACCOUNTS.find((a) => !exclude.has(a))!;
      log.push(`acquire ${account}`);
      return { account, release: () => log.push(`release ${account}`) };
    },
    token: async (account, { forceLogin }) => {
      if (script.loginFails?.includes(account)) throw new LoginFailedError(account, "bad password");
      log.push(forceLogin ? `login ${account}` : `token ${account}`);
      return `tok-${account}`;
    },
    invalidateToken: (account) => log.push(`invalidate ${account}`),
    attempt: async (args) => {
      attempts.push(args);
      const key = args.account ?? "caller";
      const next = failures[key]?.shift();
      if (next) throw next;
      return scripted(args.account, []);
    },
    afterTurn: ({ account }) => log.push(`after ${account}`),
    fileModeAvailable: script.fileModeAvailable ?? false,
    accountCount: () => ACCOUNTS.length,
    hasCandidate: () => script.hasCandidate ?? true,
    log: { warn: (msg) => log.push(`warn ${msg}`) },
  };
  const life = new TurnLife(new AbortController().signal, 60_000);
  lives.push(life);
  const f: Failover = { deps, caller: { mode: opts.mode ?? "managed", token: "caller-token" }, pinned: opts.pinned, life };
  return { f, log, attempts, life };
}

async function failure(p: Promise<unknown>): Promise<GatewayError> {
  const e = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(e).toBeInstanceOf(GatewayError);
  return e as GatewayError;
}

describe("which failures switch accounts (D8.10)", () => {
  for (const kind of ["upstream_error", "upstream_busy", "upstream_pow_failed", "upstream_rate_limited", "upstream_empty_output"]) {
    test(`${kind} on the first account: the lease goes back and the next account serves`, async () => {
      const { f, log } = setup({ failures: { a: [coreFailure(kind)] } });
      const exclude = new Set<string>();
      const live = await startOnAccounts(f, exclude);
      expect(live.started.account).toBe("b");
      expect(exclude).toEqual(new Set(["a"]));
      expect(log).toEqual(["acquire a", "token a", "release a", "acquire b", "token b"]);
    });
  }

  for (const [kind, status, code] of [
    ["model_unavailable", 503, "model_unavailable"],
    ["upstream_invalid_ref_file_id", 400, "invalid_request"],
    ["upstream_timeout", 503, "upstream_timeout"],
  ] as const) {
    test(`${kind} fails the request at once: ${status} ${code}, the lease given back`, async () => {
      const { f, log } = setup({ failures: { a: [coreFailure(kind)] } });
      const e = await failure(startOnAccounts(f, new Set()));
      expect([e.status, e.code]).toEqual([status, code]);
      expect(log).toEqual(["acquire a", "token a", "release a"]);
    });
  }

  test("switchesAccount: a failed login moves on too; an unknown error does not", () => {
    expect(switchesAccount(new LoginFailedError("a", "no"))).toBe(true);
    expect(switchesAccount(coreFailure("upstream_auth"))).toBe(true);
    expect(switchesAccount(coreFailure("input_exceeds_limit"))).toBe(false);
    expect(switchesAccount(new Error("boom"))).toBe(false);
  });

  test(`at most ${MAX_ACCOUNTS} accounts per request, then 503 upstream_unavailable`, async () => {
    const busy = () => [coreFailure("upstream_busy")];
    const { f, log } = setup({ failures: { a: busy(), b: busy(), c: busy(), d: busy() } });
    const e = await failure(startOnAccounts(f, new Set()));
    expect([e.status, e.code]).toEqual([503, "upstream_unavailable"]);
    expect(log.filter((l) => l.startsWith("acquire"))).toEqual(["acquire a", "acquire b", "acquire c"]);
    expect(log.filter((l) => l.startsWith("release"))).toEqual(["release a", "release b", "release c"]);
  });

  test("pinned: a switchable failure does not switch", async () => {
    const { f, log } = setup({ failures: { c: [coreFailure("upstream_busy")] } }, { pinned: "c" });
    const e = await failure(startOnAccounts(f, new Set()));
    expect(e.code).toBe("upstream_unavailable");
    expect(log).toEqual(["acquire c", "token c", "release c"]);
  });

  test("no account could ever serve (all cooling down): 503 upstream_auth_failed before any queue wait", async () => {
    const { f, log } = setup({ hasCandidate: false });
    const e = await failure(startOnAccounts(f, new Set()));
    expect([e.status, e.code]).toEqual([503, "upstream_auth_failed"]);
    expect(log).toEqual([]);
  });
});

describe("logins and tokens (D8.9)", () => {
  test("a token core rejects is cleared and one fresh login tried on the same account", async () => {
    const { f, log } = setup({ failures: { a: [coreFailure("upstream_auth")] } });
    const live = await startOnAccounts(f, new Set());
    expect(live.started.account).toBe("a");
    expect(log).toEqual(["acquire a", "token a", "invalidate a", "login a"]);
  });

  test("rejected again after the fresh login: the next account", async () => {
    const { f, log } = setup({ failures: { a: [coreFailure("upstream_auth"), coreFailure("upstream_auth")] } });
    const live = await startOnAccounts(f, new Set());
    expect(live.started.account).toBe("b");
    expect(log).toEqual(["acquire a", "token a", "invalidate a", "login a", "release a", "acquire b", "token b"]);
  });

  test("a failed login moves to the next account; every candidate failing is 503 upstream_auth_failed", async () => {
    const one = setup({ loginFails: ["a"] });
    expect((await startOnAccounts(one.f, new Set())).started.account).toBe("b");
    const all = setup({ loginFails: ACCOUNTS });
    const e = await failure(startOnAccounts(all.f, new Set()));
    expect([e.status, e.code]).toEqual([503, "upstream_auth_failed"]);
    expect(all.attempts).toEqual([]);
  });

  test("pass-through: no lease, the caller's token; core rejecting it is 401 invalid_upstream_token", async () => {
    const { f, log, attempts } = setup({ failures: { caller: [coreFailure("upstream_auth")] } }, { mode: "passthrough" });
    const e = await failure(startOnAccounts(f, new Set()));
    expect([e.status, e.code]).toEqual([401, "invalid_upstream_token"]);
    expect(attempts.map((a) => [a.account, a.token])).toEqual([[null, "caller-token"]]);
    expect(log).toEqual([]);
  });
});

describe("a prompt too long (D8.10)", () => {
  test("tried once more in file mode when it is available", async () => {
    const { f, attempts } = setup({ failures: { a: [coreFailure("input_exceeds_limit")] }, fileModeAvailable: true });
    const live = await startOnAccounts(f, new Set());
    expect(live.started.account).toBe("a");
    expect(attempts.map((a) => a.forceFileMode)).toEqual([false, true]);
  });

  test("without file mode: 400 context_length_exceeded, no other account", async () => {
    const { f, log } = setup({ failures: { a: [coreFailure("input_exceeds_limit")] } });
    const e = await failure(startOnAccounts(f, new Set()));
    expect([e.status, e.code]).toEqual([400, "context_length_exceeded"]);
    expect(log).toEqual(["acquire a", "token a", "release a"]);
  });
});

describe("the turn's end during an attempt", () => {
  test("the failure is the turn's own and the lease goes back, no switch", async () => {
    const { f, log, life } = setup({});
    f.deps.attempt = async ({ signal }) => {
      life.end(new DOMException("client went away", "AbortError"));
      throw signal.reason;
    };
    const e = await startOnAccounts(f, new Set()).then(
      () => null,
      (e: unknown) => e,
    );
    expect((e as DOMException).name).toBe("AbortError");
    expect(log).toEqual(["acquire a", "token a", "release a"]);
  });
});
