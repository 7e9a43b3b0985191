// The dependency bundle handed to routes. Built once by main.ts (or by a test) and never global.
import type { ConfigStore } from "./config/store";
import type { Logger } from "./http/log";
import type { LoginThrottle } from "./http/login-throttle";

export interface AdminCredentials {
  /** The admin key: SVC_ADMIN_KEY, or generated at start (D5.8). */
  key: string;
  generated: boolean;
  /** SVC_JWT_SECRET when set. */
  jwtEnvSecret?: string;
}

export interface Lifecycle {
  ready: boolean;
  draining: boolean;
}

export interface ServerHooks {
  /** Bun's server.timeout(request, seconds): 0 lifts the idle timeout for long requests (D1.3). */
  timeout(request: Request, seconds: number): void;
  requestIP(request: Request): { address: string } | null;
}

export interface AppContext {
  config: ConfigStore;
  admin: AdminCredentials;
  log: Logger;
  lifecycle: Lifecycle;
  loginThrottle: LoginThrottle;
  server?: ServerHooks;
  /** Clock in milliseconds; injectable for tests. */
  now: () => number;
}

/** Lifts the idle timeout for a request that may run long (business and core-calling admin requests). */
export function keepOpen(ctx: AppContext, request: Request): void {
  ctx.server?.timeout(request, 0);
}

export function clientIp(ctx: AppContext, request: Request): string {
  return ctx.server?.requestIP(request)?.address ?? "local";
}
