// The live configuration: one in-memory copy, changed only through serialised, validated updates that
// are persisted atomically (D2.3–D2.5) and announced to listeners (hot settings). Also the managed-key
// check (D2.7, D5.2) and the config hash (D14.6).
import { createHash, timingSafeEqual } from "node:crypto";
import { GatewayError } from "../http/errors";
import type { Config } from "./schema";
import { validateConfig, formatProblem } from "./validate";
import { syncKeys, managedKeySet } from "./keys";
import { configHash as hashConfig } from "./hash";
import { CoalescingWriter, serialiseConfig, type WriteResult } from "./persist";
import type { LoadedConfig } from "./load";

export { canonicalJson } from "./canonical-json";
export { accountIdentifier, normaliseMobileForStorage, normaliseIdentifier, tokenIdentifier, generatedProxyId } from "./identity";
export { maskAccount, maskProxy, tokenPreview, settingsView, type MaskedAccount, type MaskedProxy } from "./mask";
export { configHash } from "./hash";

/** D2.2: what every mutating admin response says while the config lives only in the environment. */
export const ENV_BACKED_WARNING = "changes live in memory only; run host sync or export to keep them";

export interface UpdateResult {
  config_writable: boolean;
  config_warning?: string;
}

/** An update that would leave an invalid config: 400 `{detail}`, nothing changed (D2.5, D2.11). */
export class InvalidConfigError extends GatewayError {
  readonly field: string;
  readonly problem: string;
  constructor(field: string, problem: string) {
    super(400, "invalid_request", formatProblem({ field, problem }), { param: field });
    this.name = "InvalidConfigError";
    this.field = field;
    this.problem = problem;
  }
}

export type ConfigMutator = (draft: Config) => void | Config | Promise<void | Config>;
export type ConfigListener = (next: Config, prev: Config) => void;

export interface ConfigStoreOptions {
  config: Config;
  /** Absolute config path; null for a store that never writes (tests, env-backed without a path). */
  path: string | null;
  /** Writes stay in memory (D2.2). */
  envBacked?: boolean;
  /**
   * Writes stay in memory for this reason (`svc-gateway demo`, issue 33): every mutating answer says
   * `config_writable:false` with it as `config_warning`, rather than claiming a write that never happens.
   */
  memoryOnly?: string;
  /** Replaces the file writer (tests). */
  writer?: CoalescingWriter;
  /** Result of a write made while loading (write-back seeding), reported until the next write. */
  initialWrite?: WriteResult;
  /** Where a throwing listener is reported; listeners must not break an update. */
  onListenerError?: (e: unknown) => void;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

const digest = (s: string) => createHash("sha256").update(s).digest();

export class ConfigStore {
  readonly path: string | null;
  readonly envBacked: boolean;
  private current: Config;
  private readonly writer: CoalescingWriter | null;
  private readonly listeners = new Set<ConfigListener>();
  private readonly onListenerError: (e: unknown) => void;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly persisting = new Set<Promise<UpdateResult>>();
  private keyDigests: Buffer[] = [];
  private keyCount = 0;
  private hash: string | null = null;
  private status: UpdateResult;
  private readonly memoryOnly?: string;

  constructor(opts: ConfigStoreOptions) {
    this.path = opts.path;
    this.envBacked = opts.envBacked ?? false;
    this.memoryOnly = opts.memoryOnly;
    this.writer = this.envBacked || this.memoryOnly !== undefined || opts.path === null ? null : (opts.writer ?? new CoalescingWriter(opts.path));
    this.onListenerError = opts.onListenerError ?? ((e) => process.stderr.write(`svc-gateway: config listener failed: ${(e as Error)?.message ?? e}\n`));
    const initial = structuredClone(opts.config);
    syncKeys(null, initial);
    this.current = deepFreeze(initial);
    this.indexKeys();
    this.status = this.memoryOnly !== undefined
      ? { config_writable: false, config_warning: this.memoryOnly }
      : this.envBacked
      ? { config_writable: false, config_warning: ENV_BACKED_WARNING }
      : opts.initialWrite && !opts.initialWrite.writable
        ? { config_writable: false, config_warning: opts.initialWrite.warning }
        : { config_writable: true };
  }

  static fromLoaded(loaded: LoadedConfig, opts: Partial<Omit<ConfigStoreOptions, "config">> = {}): ConfigStore {
    return new ConfigStore({
      config: loaded.config,
      path: loaded.path,
      envBacked: loaded.env_backed,
      initialWrite: loaded.initial_write,
      ...opts,
    });
  }

  /** The current config. Frozen: change it only through update(). */
  get(): Config {
    return this.current;
  }

  /**
   * Applies `mutator` to a copy of the current config (mutate the draft or return a new object),
   * validates the whole result and commits it. Updates run one at a time in call order, so concurrent
   * admin writes never lose each other's changes. Throws InvalidConfigError (or the mutator's own
   * error) and leaves the state unchanged. Resolves once the change is on disk or known not to be.
   */
  update(mutator: ConfigMutator): Promise<UpdateResult> {
    const committed = this.queue.then(() => this.apply(mutator));
    // The queue must survive a failed update.
    this.queue = committed.catch(() => {});
    // Writes are not part of the queue: the next mutation may run while this one is being written,
    // which is what lets a burst of updates share one write.
    const done = committed.then(() => this.persist());
    this.persisting.add(done);
    const forget = () => void this.persisting.delete(done);
    done.then(forget, forget);
    return done;
  }

  private async apply(mutator: ConfigMutator): Promise<void> {
    const prev = this.current;
    const draft = structuredClone(prev) as Config;
    const returned = await mutator(draft);
    const next = (returned ?? draft) as Config;
    const result = validateConfig(next);
    if (!result.ok) throw new InvalidConfigError(result.field, result.problem);
    syncKeys(prev, result.config);
    // Key reconciliation may merge records; the merged form must still be valid (duplicate keys).
    const synced = validateConfig(result.config);
    if (!synced.ok) throw new InvalidConfigError(synced.field, synced.problem);
    this.current = deepFreeze(synced.config);
    this.hash = null;
    this.indexKeys();
    for (const l of this.listeners) {
      try {
        l(this.current, prev);
      } catch (e) {
        this.onListenerError(e);
      }
    }
  }

  private async persist(): Promise<UpdateResult> {
    if (this.memoryOnly !== undefined) return { config_writable: false, config_warning: this.memoryOnly };
    if (!this.writer) return this.envBacked ? { config_writable: false, config_warning: ENV_BACKED_WARNING } : { config_writable: true };
    // The writer reads the latest state when it runs, so a burst of updates becomes one write.
    const r = await this.writer.write(() => serialiseConfig(this.current));
    this.status = r.writable ? { config_writable: true } : { config_writable: false, config_warning: r.warning };
    return this.status;
  }

  /** Whether the last write reached the disk (settings `config_writable`, D11.3). */
  writeStatus(): UpdateResult {
    return { ...this.status };
  }

  /** Called after every committed update with the new and the previous config. Returns an unsubscribe. */
  onChange(listener: ConfigListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  subscribe(listener: ConfigListener): () => void {
    return this.onChange(listener);
  }

  private indexKeys(): void {
    const keys = managedKeySet(this.current);
    this.keyDigests = [...keys].map(digest);
    this.keyCount = keys.size;
  }

  managedKeys(): string[] {
    return [...managedKeySet(this.current)];
  }

  managedKeyCount(): number {
    return this.keyCount;
  }

  /** D5.2: constant-time comparison of sha256 digests against every managed key. */
  isManagedKey(token: string): boolean {
    if (!token) return false;
    const d = digest(token);
    let hit = false;
    // No early exit: the time taken does not depend on which key (if any) matched.
    for (const k of this.keyDigests) hit = timingSafeEqual(d, k) || hit;
    return hit;
  }

  /** D14.6, cached until the next change. */
  configHash(): string {
    return (this.hash ??= hashConfig(this.current));
  }

  /** Waits for pending updates and writes (graceful shutdown, D1.4). */
  async flush(): Promise<void> {
    await this.queue;
    await Promise.allSettled([...this.persisting]);
    await this.writer?.flush();
  }
}
