// A device identity per account (issue 32; core-upstream §1 lets an account carry its own `device_id`): an
// account without one logs in with an id derived from its identifier and a gateway secret, instead of every
// account sharing upstream.device_id — many accounts on one device is what a farm looks like. Derived, not
// stored: the same on every restart and every instance with the same secret.
import type { Account, Config } from "../config/schema";
import { accountIdentifier } from "../config/identity";
import { effectiveUpstream } from "../config/effective";

/** SVC_DEVICE_SECRET when set; else a value every instance shares (upstream.device_id), so ids stay stable. */
export function deviceSecret(config: Config, env: Record<string, string | undefined>): string {
  return env.SVC_DEVICE_SECRET?.trim() || `svc-gateway-device:${effectiveUpstream(config, env).device_id}`;
}

/** 32 lower-case hex characters, from HMAC-SHA256(secret, identifier). */
export function derivedDeviceId(identifier: string, secret: string): string {
  // Bun's own HMAC: node:crypto stays off the start path (issue 35); the same bytes as createHmac.
  return new Bun.CryptoHasher("sha256", secret).update(`device:${identifier}`).digest("hex").slice(0, 32);
}

/** The account as the login sends it: its own device_id, else the derived one. */
export function withDeviceId(acc: Account, config: Config, env: Record<string, string | undefined>): Account {
  if (acc.device_id?.trim()) return acc;
  return { ...acc, device_id: derivedDeviceId(accountIdentifier(acc), deviceSecret(config, env)) };
}
