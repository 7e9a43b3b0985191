// config_hash (D14.6): sha256 of the canonical JSON of the config without the sync and version bookkeeping and
// without account tokens, which change at every login and would make every instance look out of sync.
import { canonicalJson } from "./canonical-json";
import { sha256Hex } from "../util/hash";
import type { Config } from "./schema";

export function hashView(config: Config): Record<string, unknown> {
  const { _host_sync_hash: _h, _host_sync_time: _t, _config_version: _v, ...rest } = config;
  if (Array.isArray(rest.accounts)) {
    rest.accounts = rest.accounts.map((acc) => {
      const { token: _token, ...kept } = acc;
      return kept;
    });
  }
  return rest;
}

export function configHash(config: Config): string {
  return sha256Hex(canonicalJson(hashView(config)));
}
