// The console's only way to the server: same-origin fetches to the admin API with the stored token. Any 401
// signs the operator out (the token expired, the password changed or the key was rotated).
import { clearToken, getToken } from "./session";

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

let onUnauthorized: () => void = () => {};
export function setUnauthorizedHandler(fn: () => void): void {
  onUnauthorized = fn;
}

/** The human message of any of the gateway's error shapes (admin `{detail}`, chat `{error:{message}}`, …). */
export function errorMessage(body: unknown, status: number): string {
  if (body && typeof body === "object") {
    const b = body as Record<string, any>;
    if (typeof b.detail === "string") return b.detail;
    if (b.error && typeof b.error.message === "string") return b.error.message;
    if (typeof b.message === "string") return b.message;
  }
  return `HTTP ${status}`;
}

export interface ApiOptions {
  method?: string;
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export async function raw(path: string, opts: ApiOptions = {}): Promise<Response> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  const token = getToken();
  if (token && !headers.Authorization) headers.Authorization = `Bearer ${token}`;
  if (opts.body !== undefined) headers["Content-Type"] = "application/json";
  const res = await fetch(path, {
    method: opts.method ?? "GET",
    headers,
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    signal: opts.signal,
    cache: "no-store",
  });
  if (res.status === 401 && path.startsWith("/admin/") && path !== "/admin/login") {
    clearToken();
    onUnauthorized();
  }
  return res;
}

export async function api<T = any>(path: string, opts: ApiOptions = {}): Promise<T> {
  const res = await raw(path, opts);
  const text = await res.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = text;
  }
  if (!res.ok) throw new ApiError(res.status, errorMessage(body, res.status));
  return body as T;
}

export const enc = encodeURIComponent;
