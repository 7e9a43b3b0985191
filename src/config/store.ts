// The live configuration: one in-memory copy, changed only through serialised, validated updates that
// are persisted atomically (D2.3–D2.5) and announced to listeners (hot settings). Also the managed-key
// check (D2.7, D5.2) and the config hash (D14.6).
import { GatewayError } from "../util/gateway-error";
import type { Config } from "./schema";
import { validateConfig, formatProblem } from "./validate";
import { syncKeys, managedKeySet } from "./keys";
import { configHash as hashConfig } from "./hash";
import { readFileSync } from "node:fs";
import type * as FileEdit from "./file-edit";
import { CoalescingWriter, serialiseConfig, type WriteResult } from "./persist";
import type { LoadedConfig } from "./load";

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

/**
 * What a gate (the shared store, issue 30) says about a change before it is committed: `ok` with the config
 * to commit (its `_config_version` set), or `newer` with a config another instance wrote first, which is
 * adopted before the change is made again on top of it. A gate that cannot share throws (503), and then
 * nothing changes: not the memory, not the file.
 */
export type GateResult = { ok: true; config: Config } | { ok: false; newer: Config };
export type ConfigGate = (next: Config, prev: Config) => Promise<GateResult>;

/** A change that lost to another instance's this many times in a row is refused (it never happens in practice). */
const MAX_GATE_ROUNDS = 8;

/** The configuration a start builds from a loaded file: both key forms reconciled as at load (D2.7). */
export function startConfig(loaded: Config): Config {
  const c = structuredClone(loaded);
  syncKeys(null, c);
  return c;
}

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

/** Another instance's config, validated here too (it may run another version of the gateway). */
function checked(config: Config): Config {
  const r = validateConfig(config);
  if (!r.ok) throw new InvalidConfigError(r.field, r.problem);
  return r.config;
}

/** `config` with the given `_config_version` (absent when undefined). */
function withVersion(config: Config, version: number | null | undefined): Config {
  const { _config_version: _old, ...rest } = config;
  return version == null ? rest : { ...rest, _config_version: version };
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

// Bun's native hasher, not node:crypto: that module costs a cold start ≈ 15 ms to load (issue 35).
const digest = (s: string) => Bun.CryptoHasher.hash("sha256", s);

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
  private gate: ConfigGate | null = null;
  /** A newer shared config was adopted during a change that then failed: it still has to reach the file. */
  private adoptedUnsaved = false;
  /** What the file holds as far as this process knows (loaded, written or reloaded): the base of the next edit. */
  private fileConfig: Config;
  /** The config the write in progress carries; becomes `fileConfig` when it lands. */
  private writing: Config | null = null;

  constructor(opts: ConfigStoreOptions) {
    this.path = opts.path;
    this.envBacked = opts.envBacked ?? false;
    this.memoryOnly = opts.memoryOnly;
    this.writer = this.envBacked || this.memoryOnly !== undefined || opts.path === null ? null : (opts.writer ?? new CoalescingWriter(opts.path));
    this.onListenerError = opts.onListenerError ?? ((e) => process.stderr.write(`svc-gateway: config listener failed: ${(e as Error)?.message ?? e}\n`));
    this.current = deepFreeze(startConfig(opts.config));
    this.fileConfig = this.current;
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
    return this.enqueue((prev) => this.build(prev, mutator), { gated: true, persist: true });
  }

  /**
   * SIGHUP (issue 30): the configuration a start would build from `loaded`, applied to the running gateway.
   * Same normalisation as a start (no reconciliation against the previous state, which is what dropped keys
   * present in one form only); shared through the gate like any change; never written back to the file.
   */
  async replace(loaded: Config): Promise<void> {
    // In Redis mode the gate gives the result its new shared version; alone, the file's own stays, as at a start.
    await this.enqueue(async () => startConfig(loaded), { gated: true, persist: false });
    // The file is what was just loaded; the version a gate added lives in memory only, as at a start.
    this.fileConfig = startConfig(loaded);
  }

  /**
   * A configuration another instance wrote (Redis mode): `pick` sees the current config and returns the one
   * to adopt, or null to keep it. Not gated (it is already shared); written to the file like any change.
   */
  adopt(pick: (current: Config) => Config | null): Promise<UpdateResult | null> {
    let changed = false;
    return this.enqueue(
      async (prev) => {
        const next = pick(prev);
        if (next === null) return prev;
        changed = true;
        return checked(next);
      },
      { gated: false, persist: true },
    ).then((r) => (changed ? r : null));
  }

  /** Installs (or removes) the gate every update and replace passes before it is committed. */
  setGate(gate: ConfigGate | null): void {
    this.gate = gate;
  }

  private enqueue(produce: (prev: Config) => Promise<Config>, opts: { gated: boolean; persist: boolean }): Promise<UpdateResult> {
    const committed = this.queue.then(() => this.apply(produce, opts.gated));
    // The queue must survive a failed update.
    this.queue = committed.catch(() => {});
    // Writes are not part of the queue: the next mutation may run while this one is being written,
    // which is what lets a burst of updates share one write.
    const done = opts.persist
      ? committed.then(
          (changed) => (changed ? this.persist() : this.writeStatus()),
          async (e) => {
            // What was adopted from another instance on the way still belongs in the file.
            if (this.adoptedUnsaved) await this.persist();
            throw e;
          },
        )
      : committed.then(() => {
          // A reload that lost a round adopted the other instance's config, then replaced it: neither goes
          // to the file (a reload never writes it).
          this.adoptedUnsaved = false;
          return this.writeStatus();
        });
    this.persisting.add(done);
    const forget = () => void this.persisting.delete(done);
    done.then(forget, forget);
    return done;
  }

  private async build(prev: Config, mutator: ConfigMutator): Promise<Config> {
    const draft = structuredClone(prev) as Config;
    const returned = await mutator(draft);
    const next = (returned ?? draft) as Config;
    const result = validateConfig(next);
    if (!result.ok) throw new InvalidConfigError(result.field, result.problem);
    syncKeys(prev, result.config);
    // Key reconciliation may merge records; the merged form must still be valid (duplicate keys).
    const synced = validateConfig(result.config);
    if (!synced.ok) throw new InvalidConfigError(synced.field, synced.problem);
    // Only the shared store moves the version; an admin body or an import cannot.
    return withVersion(synced.config, prev._config_version);
  }

  /** Resolves whether anything was committed. */
  private async apply(produce: (prev: Config) => Promise<Config>, gated: boolean): Promise<boolean> {
    for (let round = 1; ; round++) {
      const prev = this.current;
      const next = await produce(prev);
      if (next === prev) return this.adoptedUnsaved;
      const gate = gated ? this.gate : null;
      if (!gate) return this.commit(next, prev);
      const verdict = await gate(next, prev);
      if (verdict.ok) return this.commit(verdict.config, prev);
      // Another instance wrote first: take its config, then make this change again on top of it.
      this.commit(checked(verdict.newer), prev);
      this.adoptedUnsaved = true;
      if (round >= MAX_GATE_ROUNDS) throw new GatewayError(503, "store_unavailable", "The shared configuration kept changing under this write; retry shortly.", { retryAfter: 10 });
    }
  }

  private commit(next: Config, prev: Config): true {
    this.current = deepFreeze(next);
    this.hash = null;
    this.indexKeys();
    for (const l of this.listeners) {
      try {
        l(this.current, prev);
      } catch (e) {
        this.onListenerError(e);
      }
    }
    return true;
  }

  private async persist(): Promise<UpdateResult> {
    if (this.memoryOnly !== undefined) return { config_writable: false, config_warning: this.memoryOnly };
    if (!this.writer) return this.envBacked ? { config_writable: false, config_warning: ENV_BACKED_WARNING } : { config_writable: true };
    this.adoptedUnsaved = false;
    // The writer reads the latest state when it runs, so a burst of updates becomes one write.
    const r = await this.writer.write(() => this.fileText(this.current));
    if (r.writable && this.writing) this.fileConfig = this.writing;
    this.status = r.writable ? { config_writable: true } : { config_writable: false, config_warning: r.warning };
    return this.status;
  }

  /**
   * The file's next text: the operator's own text with this process's changes edited in (file-edit.ts), or the
   * whole config when there is no readable JSON object at the path (a first write, a file broken mid-edit).
   */
  private fileText(next: Config): string {
    this.writing = next;
    let text: string | null = null;
    try {
      text = readFileSync(this.path!, "utf8");
    } catch {
      // missing or unreadable: written whole
    }
    // Required on the first write: jsonc-parser builds its string tables when loaded, ≈ 6–13 ms of a start (issue 35).
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { editConfigText } = require("./file-edit") as typeof FileEdit;
    return (text !== null && editConfigText(text, this.fileConfig, next)) || serialiseConfig(next);
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
    return this.isManagedKeyDigest(digest(token));
  }

  /** isManagedKey for a token whose sha256 the caller already has (business auth needs it for the fingerprint too). */
  isManagedKeyDigest(d: Buffer): boolean {
    let hit = false;
    // No early exit: the time taken does not depend on which key (if any) matched.
    for (const k of this.keyDigests) hit = crypto.timingSafeEqual(d, k) || hit;
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
