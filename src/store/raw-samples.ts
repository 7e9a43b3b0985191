// Raw samples on disk (D13.4, D13.5): one captured chain saved as `<data dir>/raw-samples/<sample_id>/`
// with the concatenated upstream SSE and a meta.json. The sample id becomes a directory name, so it is
// checked against a strict pattern before it gets anywhere near a path.
import { join, resolve, sep } from "node:path";
import { atomicWriteFile } from "../config/persist";
import { fsp } from "../util/fs-promises";
import { randomHex } from "../util/random";
import { VERSION } from "../version";
import type { CaptureChain } from "./captures";

const SAMPLE_ID = /^[A-Za-z0-9._-]{1,64}$/;
const MAX_ID = 64;

/** D13.4: null when usable, else why not. `.` and `..` match the pattern but name other directories. */
export function sampleIdProblem(id: string): string | null {
  if (!SAMPLE_ID.test(id)) return "sample_id must be 1 to 64 characters of A-Z, a-z, 0-9, '.', '_' or '-'";
  if (id === "." || id === "..") return "sample_id must not be '.' or '..'";
  return null;
}

const pad = (n: number) => String(n).padStart(2, "0");

/** D13.4 default: sample-<YYYYMMDD-HHMMSS UTC>-<6 hex>. */
export function defaultSampleId(now: number): string {
  const d = new Date(now);
  const stamp = `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}-${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}`;
  return `sample-${stamp}-${randomHex(6)}`;
}

export function samplesRoot(dataDir: string): string {
  return resolve(dataDir, "raw-samples");
}

async function exists(path: string): Promise<boolean> {
  try {
    await (await fsp()).stat(path);
    return true;
  } catch {
    return false;
  }
}

/** An unused id: the requested one, else with `-2`, `-3`, … appended, cutting the base to stay ≤ 64. */
async function freeId(root: string, id: string): Promise<string> {
  if (!(await exists(join(root, id)))) return id;
  for (let n = 2; ; n++) {
    const suffix = `-${n}`;
    const candidate = id.slice(0, MAX_ID - suffix.length) + suffix;
    if (!(await exists(join(root, candidate)))) return candidate;
  }
}

export interface SampleMetaExtra {
  model?: string | null;
  resolved_model?: string | null;
  stream?: boolean | null;
  /** The client body with credential fields removed. */
  request?: unknown;
}

export interface SavedSample {
  sample_id: string;
  dir: string;
  meta_path: string;
  upstream_path: string;
}

const CREDENTIAL_FIELDS = new Set(["api_key", "key", "token", "password", "authorization", "access_token"]);

/** Drops credential-looking fields at any depth (D13.5 "credential fields removed"). */
export function withoutCredentials(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutCredentials);
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (!CREDENTIAL_FIELDS.has(k.toLowerCase())) out[k] = withoutCredentials(v);
    return out;
  }
  return value;
}

function parseJsonObject(text: string): Record<string, unknown> | null {
  try {
    const v = JSON.parse(text);
    return v && typeof v === "object" && !Array.isArray(v) ? v : null;
  } catch {
    return null;
  }
}

/** Writes one chain as a sample directory. `id` must already have passed sampleIdProblem. */
export async function saveSample(dataDir: string, id: string, chain: CaptureChain, extra: SampleMetaExtra, now: number): Promise<SavedSample> {
  const root = samplesRoot(dataDir);
  const { mkdir } = await fsp();
  await mkdir(root, { recursive: true, mode: 0o700 });
  const sampleId = await freeId(root, id);
  const dir = resolve(root, sampleId);
  // Belt and braces: the pattern already forbids separators, but the directory must stay inside root.
  if (!dir.startsWith(root + sep)) throw new Error("sample directory escapes the samples folder");
  await mkdir(dir, { recursive: false, mode: 0o700 });
  const upstream_path = join(dir, "upstream.stream.sse");
  const meta_path = join(dir, "meta.json");
  const first = chain.items[0]!;
  const coreRequest = parseJsonObject(first.request_body);
  const meta = {
    sample_id: sampleId,
    created_at: new Date(now).toISOString(),
    gateway_version: VERSION,
    model: extra.model ?? (typeof coreRequest?.model === "string" ? coreRequest.model : null),
    resolved_model: extra.resolved_model ?? null,
    stream: extra.stream ?? null,
    request: extra.request !== undefined ? withoutCredentials(extra.request) : null,
    capture_ids: chain.items.map((i) => i.id),
    round_count: chain.items.length,
    labels: chain.items.map((i) => i.label),
    account_id: first.account_id,
    upstream_status: first.status_code,
    upstream_bytes: chain.items.reduce((n, i) => n + i.response_bytes, 0),
    truncated: chain.items.some((i) => i.response_truncated),
  };
  await atomicWriteFile(upstream_path, chain.items.map((i) => i.response_body).join(""));
  await atomicWriteFile(meta_path, `${JSON.stringify(meta, null, 2)}\n`);
  return { sample_id: sampleId, dir, meta_path, upstream_path };
}
