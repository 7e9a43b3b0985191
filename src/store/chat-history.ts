// Server-side chat history (D12): the last `chat_history.limit` conversations with what was asked, what
// was sent to core and what came back. Persisted to `<data dir>/chat-history.json` through the atomic,
// coalescing writer (D2.3), debounced so a burst of changes is one write and a streaming entry is
// rewritten at most once a second. When the file cannot be written the history lives in memory and
// says so (`persisted:false`).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { CoalescingWriter } from "../config/persist";
import { randomHex } from "../util/random";
import { isoAt } from "./iso-time";

export type HistoryStatus = "streaming" | "success" | "error" | "stopped";
export type HistorySurface = "chat" | "responses" | "messages" | "generate";

export interface HistoryUsage {
  input_tokens: number;
  output_tokens: number;
  reasoning_tokens: number;
}

export interface HistoryToolCall {
  id: string;
  name: string;
  arguments: string;
}

export interface HistorySummary {
  id: string;
  revision: number;
  status: HistoryStatus;
  surface: HistorySurface;
  model: string;
  resolved_model: string;
  stream: boolean;
  caller_id: string;
  source: string;
  account_id: string;
  status_code: number | null;
  finish_reason: string | null;
  error_code: string | null;
  preview: string;
  user_input_preview: string;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
  elapsed_ms: number | null;
  first_token_ms: number | null;
  usage: HistoryUsage;
}

/** One normalised message as business-turn.ts records it; the console shows its role and content. */
export interface HistoryMessage {
  role: string;
  content: unknown;
  tool_calls?: unknown;
}

export interface HistoryEntry extends HistorySummary {
  request_messages: HistoryMessage[];
  final_prompt: string;
  current_input_file: string | null;
  reasoning: string;
  content: string;
  tool_calls: HistoryToolCall[];
  error: { code: string; message: string } | null;
  truncated: boolean;
}

/** What a surface knows when the request starts. */
export interface HistoryStart {
  surface: HistorySurface;
  model: string;
  resolved_model?: string;
  stream: boolean;
  caller_id: string;
  /** X-Svc-Source; `admin-tester` is never recorded (D12.6). */
  source?: string;
  account_id?: string;
  /** Normalised messages with secrets removed. */
  request_messages?: HistoryMessage[];
  final_prompt?: string;
  current_input_file?: string | null;
  /** The last user message; its first 160 characters are kept as the preview. */
  user_input?: string;
}

export type HistoryPatch = Partial<Pick<HistoryEntry, "resolved_model" | "account_id" | "final_prompt" | "current_input_file" | "request_messages" | "status_code">>;

export interface HistoryFinish {
  status: Exclude<HistoryStatus, "streaming">;
  status_code?: number;
  finish_reason?: string | null;
  error?: { code: string; message: string } | null;
  usage?: Partial<HistoryUsage>;
  /** Final texts when they were not streamed through append(). */
  content?: string;
  reasoning?: string;
  tool_calls?: HistoryToolCall[];
}

export const HISTORY_ID = /^chat_[0-9a-f]{24}$/;
export const PREVIEW_CHARS = 160;
/** D12.4: each text field is capped at 1 MiB; `truncated` tells the reader. */
export const FIELD_CAP = 1024 * 1024;
const DEBOUNCE_MS = 500;
const STREAM_WRITE_MS = 1000;

const SUMMARY_KEYS = [
  "id", "revision", "status", "surface", "model", "resolved_model", "stream", "caller_id", "source", "account_id",
  "status_code", "finish_reason", "error_code", "preview", "user_input_preview", "created_at", "updated_at",
  "completed_at", "elapsed_ms", "first_token_ms", "usage",
] as const;

export function summaryOf(e: HistoryEntry): HistorySummary {
  const out: Record<string, unknown> = {};
  for (const k of SUMMARY_KEYS) out[k] = e[k];
  return out as unknown as HistorySummary;
}

export interface ChatHistoryOptions {
  /** `<data dir>/chat-history.json`; null keeps history in memory only. */
  path: string | null;
  /** chat_history.limit, read live so a settings change applies at once. */
  limit: () => number;
  now?: () => number;
  writer?: CoalescingWriter;
}

/** Where a shared backend hears of local changes (issue 21); the memory store has none. */
export interface HistoryReplica {
  saved(e: HistoryEntry): void;
  deleted(ids: string[]): void;
  cleared(): void;
}

export class ChatHistoryStore {
  readonly path: string | null;
  private replica: HistoryReplica | null = null;
  private entries = new Map<string, HistoryEntry>();
  private rev = 0;
  private readonly writer: CoalescingWriter | null;
  private readonly now: () => number;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private dueAt = 0;
  private writable = true;
  private startedAt = new Map<string, number>();
  /**
   * Whether the map's order (the order entries were added in) is still created_at order, and the created_at of the
   * entry added last: then the oldest entry is the first, found without a scan (enforceLimit). Entries from a file
   * or another instance can arrive out of order; then the scan decides, as before.
   */
  private inOrder = true;
  private lastCreated = "";
  /** Each entry's JSON as last written, by entry (gone with it) and revision. */
  private serialized = new WeakMap<HistoryEntry, { revision: number; json: string }>();

  private constructor(private readonly opts: ChatHistoryOptions) {
    this.path = opts.path;
    this.now = opts.now ?? Date.now;
    this.writer = opts.path === null ? null : (opts.writer ?? new CoalescingWriter(opts.path));
  }

  static pathIn(dataDir: string): string {
    return join(dataDir, "chat-history.json");
  }

  /** Loads the file if there is one; entries left `streaming` by a crash become `interrupted` errors (D12.1). */
  static async open(opts: ChatHistoryOptions): Promise<ChatHistoryStore> {
    const store = new ChatHistoryStore(opts);
    if (opts.path) await store.load(opts.path);
    return store;
  }

  private async load(path: string): Promise<void> {
    let text: string;
    try {
      // Synchronous: read once at start, before the first request, without node:fs/promises (util/fs-promises.ts).
      text = readFileSync(path, "utf8");
    } catch {
      return;
    }
    let doc: { revision?: unknown; items?: unknown };
    try {
      doc = JSON.parse(text);
    } catch {
      return;
    }
    // The file lists newest first; entries go into the map oldest first, the order they started in.
    const items = Array.isArray(doc.items) ? (doc.items as HistoryEntry[]).slice().reverse() : [];
    this.rev = typeof doc.revision === "number" ? doc.revision : 0;
    let changed = false;
    for (const e of items) {
      if (!e || typeof e.id !== "string" || !HISTORY_ID.test(e.id)) continue;
      if (e.status === "streaming") {
        e.status = "error";
        e.error_code = "interrupted";
        e.error = { code: "interrupted", message: "The gateway stopped while this request was running." };
        e.revision += 1;
        changed = true;
      }
      this.put(e);
    }
    if (changed) this.touch(DEBOUNCE_MS);
    this.enforceLimit();
  }

  /** Local changes go to `replica` from now on. */
  attachReplica(replica: HistoryReplica): void {
    this.replica = replica;
  }

  /** Another instance's entry: kept when newer than ours (by revision); never sent back to the replica. */
  applyRemote(e: HistoryEntry): void {
    if (!e || typeof e.id !== "string" || !HISTORY_ID.test(e.id)) return;
    const mine = this.entries.get(e.id);
    if (mine && mine.revision >= e.revision) return;
    this.put(e);
    this.bump(DEBOUNCE_MS);
  }

  removeRemote(ids: string[]): void {
    let any = false;
    for (const id of ids) any = this.entries.delete(id) || any;
    if (any) this.bump(DEBOUNCE_MS);
  }

  clearRemote(): void {
    this.entries.clear();
    this.inOrder = true;
    this.startedAt.clear();
    this.bump(DEBOUNCE_MS);
  }

  get revision(): number {
    return this.rev;
  }

  get persisted(): boolean {
    return this.writer !== null && this.writable;
  }

  /** Newest first; entries started in the same millisecond, the later started first. */
  items(): HistoryEntry[] {
    // ISO timestamps of one format order as plain strings (no collation needed). Timestamps have millisecond
    // resolution, so ties are common under load: the map holds entries in the order they started and the sort is
    // stable, so reversing first puts the later of a tie first.
    return [...this.entries.values()].reverse().sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0));
  }

  get(id: string): HistoryEntry | undefined {
    return HISTORY_ID.test(id) ? this.entries.get(id) : undefined;
  }

  size(): number {
    return this.entries.size;
  }

  /** Starts an entry; null when recording is off (limit 0) or the source is the admin tester (D12.6). */
  start(init: HistoryStart): string | null {
    if (this.opts.limit() <= 0 || init.source === "admin-tester") return null;
    const id = `chat_${randomHex(24)}`;
    const now = this.now();
    const at = isoAt(now);
    const entry: HistoryEntry = {
      id,
      revision: 1,
      status: "streaming",
      surface: init.surface,
      model: init.model,
      resolved_model: init.resolved_model ?? "",
      stream: init.stream,
      caller_id: init.caller_id,
      source: init.source ?? "",
      account_id: init.account_id ?? "",
      status_code: null,
      finish_reason: null,
      error_code: null,
      preview: "",
      user_input_preview: (init.user_input ?? "").slice(0, PREVIEW_CHARS),
      created_at: at,
      updated_at: at,
      completed_at: null,
      elapsed_ms: null,
      first_token_ms: null,
      usage: { input_tokens: 0, output_tokens: 0, reasoning_tokens: 0 },
      request_messages: init.request_messages ?? [],
      final_prompt: "",
      current_input_file: null,
      reasoning: "",
      content: "",
      tool_calls: [],
      error: null,
      truncated: false,
    };
    this.setText(entry, "final_prompt", init.final_prompt ?? "");
    if (init.current_input_file != null) this.setText(entry, "current_input_file", init.current_input_file);
    this.put(entry);
    this.startedAt.set(id, now);
    this.enforceLimit();
    this.changed(entry, DEBOUNCE_MS);
    return id;
  }

  update(id: string | null, patch: HistoryPatch): void {
    const e = id ? this.entries.get(id) : undefined;
    if (!e) return;
    for (const [k, v] of Object.entries(patch)) {
      if (v === undefined) continue;
      if (k === "final_prompt" || k === "current_input_file") this.setText(e, k, v as string | null);
      else (e as unknown as Record<string, unknown>)[k] = v;
    }
    this.changed(e, DEBOUNCE_MS);
  }

  /** Streamed deltas of the visible answer and of the thinking text. */
  append(id: string | null, delta: { content?: string; reasoning?: string }): void {
    const e = id ? this.entries.get(id) : undefined;
    if (!e) return;
    if (e.first_token_ms === null && (delta.content || delta.reasoning)) e.first_token_ms = this.elapsed(e);
    if (delta.content) this.setText(e, "content", e.content + delta.content);
    if (delta.reasoning) this.setText(e, "reasoning", e.reasoning + delta.reasoning);
    this.changed(e, STREAM_WRITE_MS);
  }

  finish(id: string | null, fin: HistoryFinish): void {
    const e = id ? this.entries.get(id) : undefined;
    if (!e) return;
    if (fin.content !== undefined) this.setText(e, "content", fin.content);
    if (fin.reasoning !== undefined) this.setText(e, "reasoning", fin.reasoning);
    if (fin.tool_calls) e.tool_calls = fin.tool_calls;
    e.status = fin.status;
    if (fin.status_code !== undefined) e.status_code = fin.status_code;
    if (fin.finish_reason !== undefined) e.finish_reason = fin.finish_reason;
    e.error = fin.error ?? null;
    e.error_code = fin.error?.code ?? null;
    if (fin.usage) e.usage = { ...e.usage, ...fin.usage };
    e.completed_at = isoAt(this.now());
    e.elapsed_ms = this.elapsed(e);
    this.startedAt.delete(e.id);
    this.changed(e, DEBOUNCE_MS);
  }

  delete(id: string): boolean {
    if (!this.get(id)) return false;
    this.entries.delete(id);
    this.startedAt.delete(id);
    this.bump(DEBOUNCE_MS);
    this.replica?.deleted([id]);
    return true;
  }

  clear(): void {
    this.entries.clear();
    this.inOrder = true;
    this.startedAt.clear();
    this.bump(DEBOUNCE_MS);
    this.replica?.cleared();
  }

  /** Drops the oldest entries (by created_at) beyond the limit; 0 deletes everything (D12.6). */
  enforceLimit(): void {
    const limit = Math.max(0, this.opts.limit());
    const excess = this.entries.size - limit;
    if (excess <= 0) return;
    let dropped: string[];
    if (excess === 1) {
      // The usual case, once per new entry at the limit: the oldest one, found without sorting every entry.
      let oldest: HistoryEntry | undefined;
      if (this.inOrder) oldest = this.entries.values().next().value;
      else for (const e of this.entries.values()) if (!oldest || e.created_at < oldest.created_at) oldest = e;
      dropped = [oldest!.id];
    } else dropped = this.items().reverse().slice(0, excess).map((e) => e.id);
    for (const id of dropped) {
      this.entries.delete(id);
      this.startedAt.delete(id);
    }
    this.bump(DEBOUNCE_MS);
    this.replica?.deleted(dropped);
  }

  /** Writes pending changes now (shutdown, D1.4; tests). */
  async flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
      await this.write();
    }
    await this.writer?.flush();
  }

  /** Adds or replaces an entry, noting whether the map is still in created_at order. */
  private put(e: HistoryEntry): void {
    const had = this.entries.get(e.id);
    if (had) {
      if (had.created_at !== e.created_at) this.inOrder = false;
    } else {
      if (this.entries.size === 0) this.inOrder = true;
      else if (!(e.created_at >= this.lastCreated)) this.inOrder = false;
      this.lastCreated = e.created_at;
    }
    this.entries.set(e.id, e);
  }

  private elapsed(e: HistoryEntry): number {
    const start = this.startedAt.get(e.id) ?? Date.parse(e.created_at);
    return Math.max(0, this.now() - start);
  }

  private setText(e: HistoryEntry, field: "final_prompt" | "current_input_file" | "content" | "reasoning", value: string | null): void {
    if (value !== null && value.length > FIELD_CAP) {
      value = value.slice(0, FIELD_CAP);
      e.truncated = true;
    }
    (e as unknown as Record<string, unknown>)[field] = value;
    if (field === "content") e.preview = (value ?? "").slice(0, PREVIEW_CHARS);
  }

  private changed(e: HistoryEntry, delay: number): void {
    e.revision += 1;
    e.updated_at = isoAt(this.now());
    this.bump(delay);
    this.replica?.saved(e);
  }

  private bump(delay: number): void {
    this.rev += 1;
    this.touch(delay);
  }

  /** Schedules a write no later than `delay` from now; an earlier scheduled write already covers it. */
  private touch(delay: number): void {
    if (!this.writer) return;
    const due = this.now() + delay;
    if (this.timer && this.dueAt <= due) return;
    if (this.timer) clearTimeout(this.timer);
    this.dueAt = due;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.write();
    }, delay);
    (this.timer as { unref?: () => void }).unref?.();
  }

  private async write(): Promise<void> {
    if (!this.writer) return;
    const r = await this.writer.write(() => this.document());
    this.writable = r.writable;
  }

  /**
   * The file's text: what JSON.stringify({version, revision, items}) gives, with each entry's JSON kept from
   * the last write while its revision is the same (every change bumps it, D12.5). An agent's entry holds its
   * prompt twice (messages and final prompt, often hundreds of KB); serialising all of them on every write,
   * twice a second under traffic, held the event loop for tens of milliseconds each time.
   */
  private document(): string {
    const parts: string[] = [];
    for (const e of this.items()) {
      let c = this.serialized.get(e);
      if (!c || c.revision !== e.revision) {
        c = { revision: e.revision, json: JSON.stringify(e) };
        this.serialized.set(e, c);
      }
      parts.push(c.json);
    }
    return `{"version":1,"revision":${JSON.stringify(this.rev)},"items":[${parts.join(",")}]}\n`;
  }
}
