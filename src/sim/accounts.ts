// Accounts, logins and tokens (core-upstream §5.1, §10.1, §12.2, §12.4). Accounts are matched by email
// or by mobile in any of the forms the gateway may send; tokens are `sim-` + 32 hex, can expire by age
// (`tokenTtlMs`) or on demand, and an invalid one is answered with the configured expiry form.
import { createHash } from "node:crypto";
import { bizFail, ok, type JsonReply } from "./envelope";
import type { RngFamily } from "./rng";
import type { ExpiryForm, SimAccount } from "./types";

/** National digits of a mobile number: a 13-digit `86…` number loses its country code (§5.1). */
export function mobileDigits(m: string): string {
  const d = m.replace(/\D/g, "");
  return d.length === 13 && d.startsWith("86") ? d.slice(2) : d;
}

/** The account identifier (D8.1): lower-cased email, else the mobile with +86 for 11-digit numbers starting with 1. */
export function accountId(a: { email?: string; mobile?: string }): string {
  if (a.email?.trim()) return a.email.trim().toLowerCase();
  const d = mobileDigits(a.mobile ?? "");
  return d.length === 11 && d.startsWith("1") ? `+86${d}` : `+${d}`;
}

/** Any spelling of an account (email, mobile in any form, identifier) → its identifier. */
export function normaliseAccountRef(ref: string): string {
  return ref.includes("@") ? ref.trim().toLowerCase() : accountId({ mobile: ref });
}

interface TokenRecord {
  account: string;
  issuedMs: number;
  expired: boolean;
}

export function expiryReply(form: ExpiryForm): JsonReply {
  switch (form) {
    case "http403":
      return { status: 403, json: { code: 403, msg: "forbidden", data: null } };
    case "code40003":
      return { status: 200, json: { code: 40003, msg: "token invalid", data: null } };
    case "bizMsg":
      return { status: 200, json: bizFail(40100, "token expired, login required") };
    case "bizMsgZh":
      return { status: 200, json: bizFail(40100, "登录已过期") };
    default:
      return { status: 401, json: { code: 401, msg: "unauthorized", data: null } };
  }
}

/** What a banned account's login answers (simulator convention: core's real ban form is unknown, §11). */
export const BANNED_TEXT = "user is disabled";

export class AccountStore {
  private accounts = new Map<string, SimAccount>();
  private tokens = new Map<string, TokenRecord>();
  /** Banned accounts: logins refused with BANNED_TEXT, their tokens no longer accepted. */
  private banned = new Set<string>();

  constructor(
    accounts: SimAccount[],
    private readonly rng: RngFamily,
    /** Issue time of preset tokens (the clock at start), so `tokenTtlMs` ages them like any other. */
    private readonly presetIssuedMs = 0,
  ) {
    for (const a of accounts) this.add(a);
  }

  add(a: SimAccount): string {
    const id = accountId(a);
    this.accounts.set(id, a);
    // A preset token lets a gateway configured with a stored token skip the login (§10.1).
    if (a.token) this.tokens.set(a.token, { account: id, issuedMs: this.presetIssuedMs, expired: false });
    return id;
  }

  ids(): string[] {
    return [...this.accounts.keys()];
  }

  login(body: any, open: boolean, nowMs: number): { reply: JsonReply; account: string | null } {
    const email = typeof body?.email === "string" ? body.email.trim() : "";
    const mobile = body?.mobile !== undefined && body?.mobile !== null ? String(body.mobile) : "";
    const id = email ? email.toLowerCase() : mobile ? accountId({ mobile }) : "";
    const acc = id ? this.accounts.get(id) : undefined;
    if (!acc && !open) return { reply: { status: 200, json: bizFail(2, "account not found") }, account: null };
    if (acc && !open && acc.password !== body?.password) return { reply: { status: 200, json: bizFail(2, "wrong password") }, account: null };
    if (this.banned.has(id)) return { reply: { status: 200, json: bizFail(3, BANNED_TEXT) }, account: null };
    const account = id || "open";
    const token = `sim-${this.rng.next("token").hex(32)}`;
    this.tokens.set(token, { account, issuedMs: nowMs, expired: false });
    const user = { id: this.rng.next("user").uuid(), token, email: email || null, mobile_number: mobile || null, area_code: body?.area_code ?? null, status: 0 };
    return { reply: { status: 200, json: ok({ code: 0, msg: "", user }) }, account };
  }

  /**
   * The account behind a bearer token, or null when it is unknown or expired. With `open`, any other token
   * is a pass-through identity of its own (files bind to it), named by a hash and never by the token.
   */
  resolve(authorization: string | null, open: boolean, ttlMs: number | null, nowMs: number): string | null {
    const m = /^Bearer\s+(.+)$/i.exec(authorization ?? "");
    if (!m) return null;
    const token = m[1]!.trim();
    const rec = this.tokens.get(token);
    if (rec) {
      if (ttlMs !== null && nowMs - rec.issuedMs >= ttlMs) rec.expired = true;
      return rec.expired ? null : rec.account;
    }
    return open ? `token:${createHash("sha256").update(token).digest("hex").slice(0, 12)}` : null;
  }

  clearBans(): void {
    this.banned.clear();
  }

  /** Bans (or lifts the ban of) an account: its tokens expire at once; returns its identifier. */
  ban(account: string, on: boolean): string {
    const id = normaliseAccountRef(account);
    if (on) {
      this.banned.add(id);
      this.expire(id);
    } else this.banned.delete(id);
    return id;
  }

  expire(account?: string): number {
    const id = account === undefined ? undefined : normaliseAccountRef(account);
    let n = 0;
    for (const rec of this.tokens.values()) {
      if (id !== undefined && rec.account !== id) continue;
      if (!rec.expired) n++;
      rec.expired = true;
    }
    return n;
  }

  /** Forgets issued tokens; preset tokens are restored, as they belong to the account configuration. */
  clearTokens(): void {
    this.tokens.clear();
    for (const [id, a] of this.accounts) if (a.token) this.tokens.set(a.token, { account: id, issuedMs: this.presetIssuedMs, expired: false });
  }
}
