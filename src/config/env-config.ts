// Decoding SVC_CONFIG_JSON (D2.1) and reading env booleans (D0.5).

export type EnvConfigKind = "raw JSON" | "Base64";

export class EnvDecodeError extends Error {}

/** Surrounding quotes are removed because hosting dashboards and .env files often keep them. */
function unquote(s: string): string {
  const t = s.trim();
  if (t.length >= 2 && (t[0] === '"' || t[0] === "'") && t[t.length - 1] === t[0]) return t.slice(1, -1).trim();
  return t;
}

const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

/** Standard or URL-safe alphabet, padding optional, line breaks ignored. Throws EnvDecodeError. */
export function decodeBase64Text(value: string): string {
  const compact = value.replace(/\s+/g, "");
  if (compact === "" || !BASE64.test(compact)) throw new EnvDecodeError("is not valid Base64 (standard or URL-safe)");
  const body = compact.replace(/=+$/, "");
  // A Base64 body of length 4n+1 cannot come from any byte string.
  if (body.length % 4 === 1) throw new EnvDecodeError("is not valid Base64 (truncated)");
  const standard = body.replace(/-/g, "+").replace(/_/g, "/");
  const padded = standard + "=".repeat((4 - (standard.length % 4)) % 4);
  const bytes = Buffer.from(padded, "base64");
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes).replace(/^\uFEFF/, "");
  } catch {
    throw new EnvDecodeError("decodes from Base64 to bytes that are not UTF-8 text");
  }
}

/** The JSON text carried by SVC_CONFIG_JSON and how it was encoded. Throws EnvDecodeError. */
export function decodeEnvConfig(value: string): { kind: EnvConfigKind; text: string } {
  const v = unquote(value);
  if (v.startsWith("{")) return { kind: "raw JSON", text: v };
  try {
    return { kind: "Base64", text: decodeBase64Text(v) };
  } catch (e) {
    // Say which reading failed and why (issue 33): `not json` used to read only "decodes from Base64 to bytes
    // that are not UTF-8 text", which sent people hunting for a Base64 they never wrote.
    if (e instanceof EnvDecodeError) throw new EnvDecodeError(`is neither raw JSON (it does not start with "{") nor Base64 (it ${e.message})`);
    throw e;
  }
}

/** D0.5: 1/true/yes/on and 0/false/no/off, any case; anything else → the default and a warning. */
export function parseEnvBoolean(name: string, value: string | undefined, fallback: boolean): { value: boolean; warning?: string } {
  if (value === undefined || value.trim() === "") return { value: fallback };
  const v = value.trim().toLowerCase();
  if (["1", "true", "yes", "on"].includes(v)) return { value: true };
  if (["0", "false", "no", "off"].includes(v)) return { value: false };
  return { value: fallback, warning: `${name}: unrecognised boolean value; using the default (${fallback ? "on" : "off"})` };
}
