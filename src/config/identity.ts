// Identifiers of config records: accounts (D8.1, core-upstream.md §10.1) and generated proxy ids (D0.2).
import { sha256Hex } from "../util/hash";

interface AccountLike {
  email?: string | null;
  mobile?: string | null;
  token?: string | null;
}

/**
 * The stored form of a mobile number: spaces, dashes and parentheses removed; an 11-digit number
 * starting with 1 (a mainland number) gets +86; any other number keeps its leading + or gains one.
 * "" when nothing is left (no mobile identifier).
 */
export function normaliseMobileForStorage(mobile: string): string {
  const m = mobile.replace(/[\s\-()]/g, "");
  if (m === "") return "";
  if (/^1\d{10}$/.test(m)) return `+86${m}`;
  return m.startsWith("+") ? m : `+${m}`;
}

export function tokenIdentifier(token: string): string {
  return `token:${sha256Hex(token).slice(0, 16)}`;
}

/** D8.1: email, else stored-form mobile, else `token:<16 hex>`; "" for an account with none of them. */
export function accountIdentifier(acc: AccountLike): string {
  const email = acc.email?.trim().toLowerCase() ?? "";
  if (email) return email;
  const mobile = acc.mobile ? normaliseMobileForStorage(acc.mobile) : "";
  if (mobile) return mobile;
  return acc.token ? tokenIdentifier(acc.token) : "";
}

const byIdentifier = new WeakMap<readonly AccountLike[], Map<string, AccountLike>>();

/**
 * The account of `list` with identifier `id` (the first, as `find` would). A request asks this three or four times
 * (its token, its pacing, its proxy), and each `find` worked out every account's identifier again — a SHA-256 per
 * token account. A frozen list (the config store's: frozen and replaced on every write) is indexed once.
 */
export function findAccount<T extends AccountLike>(list: readonly T[], id: string): T | undefined {
  let index = byIdentifier.get(list);
  if (!index) {
    // Asked only before the list is indexed (a frozen list stays frozen): isFrozen reads every element of an array.
    if (!Object.isFrozen(list)) return list.find((a) => accountIdentifier(a) === id);
    index = new Map();
    for (const a of list) {
      const key = accountIdentifier(a);
      if (!index.has(key)) index.set(key, a);
    }
    byIdentifier.set(list, index);
  }
  return index.get(id) as T | undefined;
}

/**
 * An identifier typed by a person (admin path segment, X-Svc-Target-Account, D5.3/D11.5) in the form
 * accountIdentifier produces, so both can be compared with ===.
 */
export function normaliseIdentifier(input: string): string {
  const s = input.trim();
  if (/^token:/i.test(s)) return s.toLowerCase();
  if (s.includes("@")) return s.toLowerCase();
  return normaliseMobileForStorage(s);
}

/** D0.2: `proxy_` + first 12 hex of sha256(`<type>:<host>:<port>:<username>`). */
export function generatedProxyId(p: { type: string; host: string; port: number | string; username?: string | null }): string {
  return `proxy_${sha256Hex(`${p.type}:${p.host}:${p.port}:${p.username ?? ""}`).slice(0, 12)}`;
}
