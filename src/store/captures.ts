// Dev captures (D13.1–D13.3): the gateway's own calls to core, kept in memory for debugging. Never client
// traffic and never headers, so no credential can end up here. Newest first; the oldest is dropped beyond
// `limit`. The core client calls record(); the raw-sample capture route forces recording for one chain.
import { parseEnvBoolean } from "../config/env-config";
import { randomHex } from "../util/random";
import { isoAt } from "./iso-time";

export type CaptureLabel = "completion" | "continue" | "upload";

export interface CaptureInput {
  label: CaptureLabel;
  /** The gateway request id: groups a completion with its continue rounds. */
  chain_key: string;
  /** 0 for the completion, 1… for continue rounds. */
  round: number;
  method: string;
  /** Core path without the query. */
  path: string;
  account_id: string;
  status_code: number;
  duration_ms: number;
  request_body: string;
  /** Raw SSE text for streams. */
  response_body?: string;
  /**
   * Or the body as read, decoded only when the item is first read: captures are on by default and rarely
   * looked at, and decoding every answer's raw SSE (then encoding it again to measure it) was a tenth of a
   * long answer's CPU (issue 17).
   */
  response_chunks?: Uint8Array[];
  /** Full size of the response body, before truncation; defaults to its UTF-8 length. */
  response_bytes?: number;
}

export interface CaptureItem extends Omit<CaptureInput, "response_bytes" | "response_body" | "response_chunks"> {
  response_body: string;
  id: string;
  created_at: string;
  response_bytes: number;
  response_truncated: boolean;
  request_truncated: boolean;
}

export interface CaptureChain {
  chain_key: string;
  /** Oldest round first. */
  items: CaptureItem[];
}

export interface CaptureSettings {
  enabled: boolean;
  limit: number;
  max_body_bytes: number;
}

const KiB = 1024;
const MiB = 1024 * KiB;
export const PREVIEW_CHARS = 160;

function clampInt(raw: string | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined || raw.trim() === "" || !/^-?\d+$/.test(raw.trim())) return fallback;
  return Math.min(max, Math.max(min, Number(raw.trim())));
}

/** D13.1 / D1.6: on, 20 items, 5 MiB; out-of-range env values are clamped. */
export function captureSettingsFromEnv(env: Record<string, string | undefined>): CaptureSettings {
  return {
    enabled: parseEnvBoolean("SVC_DEV_CAPTURE", env.SVC_DEV_CAPTURE, true).value,
    limit: clampInt(env.SVC_DEV_CAPTURE_LIMIT, 20, 1, 50),
    max_body_bytes: clampInt(env.SVC_DEV_CAPTURE_MAX_BODY_BYTES, 5 * MiB, KiB, 64 * MiB),
  };
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Cuts `text` to at most `max` UTF-8 bytes without splitting a character (D13.2). */
export function truncateUtf8(text: string, max: number): { text: string; bytes: number; truncated: boolean } {
  // Counted without encoding: most bodies fit, and an agent's request body is often hundreds of KB.
  const length = Buffer.byteLength(text, "utf8");
  if (length <= max) return { text, bytes: length, truncated: false };
  const bytes = encoder.encode(text);
  let end = max;
  // Step back over continuation bytes (10xxxxxx) so the cut lands on a character boundary.
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
  return { text: decoder.decode(bytes.subarray(0, end)), bytes: bytes.byteLength, truncated: true };
}

/** What a streamed round's capture knows when its answer starts, its request body aside (OpenCapture.request). */
export type CaptureStart = Omit<CaptureInput, "request_body" | "duration_ms" | "response_body" | "response_chunks" | "response_bytes">;

/**
 * A streamed round's capture while its answer arrives: a place in the ring from its start, listed once it ends.
 * Rounds that newer ones push out of the ring before they end are `dropped`, and their sink stops keeping the
 * answer: an open stream holds its capture (the request body, the answer read so far) only while it can still be
 * listed, so the captures' memory is bounded by `limit`, not by the number of open streams (issue 35).
 */
export class OpenCapture {
  dropped = false;
  /** The sink keeping the answer: told to let go of it as soon as the round is dropped. */
  keeper: { release(): void } | null = null;
  constructor(
    readonly start: CaptureStart,
    /** The request body as it will be stored (truncated), released when the round is dropped. */
    public request: { text: string; truncated: boolean } | null,
  ) {}
}

function drop(open: OpenCapture): void {
  open.dropped = true;
  open.request = null;
  open.keeper?.release();
  open.keeper = null;
}

export class CaptureStore {
  /** Newest first: ended rounds by their end, open ones (not listed) by their start. */
  private items: (CaptureItem | OpenCapture)[] = [];
  private forced = new Set<string>();

  constructor(
    readonly settings: CaptureSettings,
    private readonly now: () => number = Date.now,
  ) {}

  private captures(chainKey: string): boolean {
    return this.settings.enabled || this.forced.has(chainKey);
  }

  /** Records one call to core. Returns the item, or null when captures are off for this chain. */
  record(input: CaptureInput): CaptureItem | null {
    if (!this.captures(input.chain_key)) return null;
    return this.add(input, truncateUtf8(input.request_body ?? "", this.settings.max_body_bytes), input);
  }

  /**
   * A streamed round begins (its answer's head arrived): null when captures are off for its chain. The request
   * body is kept only as the open round's (truncated) `request`, which a drop releases.
   */
  begin(start: CaptureStart, requestBody: string): OpenCapture | null {
    if (!this.captures(start.chain_key)) return null;
    const open = new OpenCapture(start, truncateUtf8(requestBody, this.settings.max_body_bytes));
    this.items.unshift(open);
    this.trim();
    return open;
  }

  /** The round ended: recorded as newest, as record() does; null when it was dropped meanwhile. */
  finish(open: OpenCapture, end: Pick<CaptureInput, "duration_ms" | "response_chunks" | "response_bytes">): CaptureItem | null {
    if (open.dropped || !open.request) return null;
    const at = this.items.indexOf(open);
    if (at >= 0) this.items.splice(at, 1);
    // Ended: no longer an open round, and its sink's blocks are the item's answer from here on.
    open.dropped = true;
    open.keeper = null;
    return this.add({ ...open.start, ...end }, open.request, end);
  }

  private add(input: CaptureStart & { duration_ms: number }, req: { text: string; truncated: boolean }, body: Pick<CaptureInput, "response_body" | "response_chunks" | "response_bytes">): CaptureItem {
    const max = this.settings.max_body_bytes;
    let chunks = body.response_chunks;
    let res = chunks ? null : truncateUtf8(body.response_body ?? "", max);
    const response = () => {
      if (!res) {
        res = truncateUtf8(Buffer.concat(chunks!).toString("utf8"), max);
        chunks = undefined;
      }
      return res;
    };
    const item: CaptureItem = {
      id: `cap_${randomHex(24)}`,
      created_at: isoAt(this.now()),
      label: input.label,
      chain_key: input.chain_key,
      round: input.round,
      method: input.method,
      path: input.path.split("?")[0]!,
      account_id: input.account_id,
      status_code: input.status_code,
      duration_ms: input.duration_ms,
      request_body: req.text,
      // Own enumerable getters: JSON answers, spreads and clones read them like plain fields.
      get response_body() {
        return response().text;
      },
      response_bytes: body.response_bytes ?? response().bytes,
      get response_truncated() {
        return response().truncated;
      },
      request_truncated: req.truncated,
    };
    this.items.unshift(item);
    this.trim();
    return item;
  }

  /** The oldest beyond `limit` go; an open round among them is dropped, and lets go of its bodies. */
  private trim(): void {
    while (this.items.length > this.settings.limit) {
      const gone = this.items.pop();
      if (gone instanceof OpenCapture) drop(gone);
    }
  }

  /** The ended rounds, newest first. */
  private ended(): CaptureItem[] {
    return this.items.filter((i): i is CaptureItem => !(i instanceof OpenCapture));
  }

  /** Records this chain even while captures are off (raw-sample capture, D13.6). Returns the undo. */
  force(chainKey: string): () => void {
    this.forced.add(chainKey);
    return () => void this.forced.delete(chainKey);
  }

  /** Newest first. */
  list(): CaptureItem[] {
    return this.ended();
  }

  /** Every capture goes, the open rounds' too (their sinks stop keeping their answers). */
  clear(): void {
    for (const i of this.items) if (i instanceof OpenCapture) drop(i);
    this.items = [];
  }

  /** Chains, newest first (by their latest round); each chain's items oldest round first. */
  chains(): CaptureChain[] {
    const byKey = new Map<string, CaptureItem[]>();
    for (const item of this.ended()) {
      const list = byKey.get(item.chain_key);
      if (list) list.push(item);
      else byKey.set(item.chain_key, [item]);
    }
    return [...byKey].map(([chain_key, items]) => ({
      chain_key,
      items: items.sort((a, b) => a.round - b.round || a.created_at.localeCompare(b.created_at)),
    }));
  }

  chain(key: string): CaptureChain | undefined {
    return this.chains().find((c) => c.chain_key === key);
  }

  chainOfCapture(id: string): CaptureChain | undefined {
    const item = this.ended().find((i) => i.id === id);
    return item ? this.chain(item.chain_key) : undefined;
  }

  /** D13.3: chains whose request or response bodies contain every word of `q` (case-insensitive). */
  query(q: string, limit: number): CaptureChain[] {
    const terms = q.toLowerCase().split(/\s+/).filter(Boolean);
    const matches = (c: CaptureChain) => {
      if (terms.length === 0) return true;
      const hay = c.items.map((i) => `${i.request_body}\n${i.response_body}`).join("\n").toLowerCase();
      return terms.every((t) => hay.includes(t));
    };
    return this.chains().filter(matches).slice(0, limit);
  }
}

/** The query item of D13.3. */
export function chainSummary(c: CaptureChain) {
  const first = c.items[0]!;
  return {
    chain_key: c.chain_key,
    capture_ids: c.items.map((i) => i.id),
    round_count: c.items.length,
    initial_label: (c.items.find((i) => i.round === 0) ?? first).label,
    request_preview: first.request_body.slice(0, PREVIEW_CHARS),
    response_preview: first.response_body.slice(0, PREVIEW_CHARS),
  };
}
