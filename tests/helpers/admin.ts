// Shorthands for admin tests: an app with the admin key as the credential and JSON in, JSON out.
import { makeTestApp, type TestApp } from "./app";
import type { Config } from "../../src/config/schema";

export const ADMIN = { Authorization: "Bearer test-admin-key" };

export interface AdminCall {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

export async function call(t: TestApp, method: string, path: string, json?: unknown, headers: Record<string, string> = {}): Promise<AdminCall> {
  const r = await t.req(path, { method, headers: { ...ADMIN, ...headers }, json });
  const text = await r.text();
  let body: any = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  return { status: r.status, headers: r.headers, body, text };
}

export function adminApp(config: Config = {}, env: Record<string, string> = {}): Promise<TestApp> {
  return makeTestApp({ config, env });
}
