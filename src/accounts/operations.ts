// The seam between the admin API and core. Admin routes that need core (account tests, session cleanup)
// call this interface; the core client implements it and the context builder sets `ctx.accountOps`.
// Until then those routes answer 503 (requireAccountOps, src/surfaces/admin/core-guard.ts), so the admin API can
// ship and be tested before core is wired.
export interface AccountTestOptions {
  /** Native model id or alias; default core-v4-flash. */
  model: string;
  /** "" tests only login and session creation (gateway.md "Account test request"). */
  message: string;
  /** 60 s for a single test (D11.6); aborting must cancel the core request. */
  signal?: AbortSignal;
}

export interface AccountTestResult {
  success: boolean;
  /** Milliseconds from start to the end of the test. */
  response_time: number;
  /** Human summary or the failure reason; must never contain a token or password. */
  message: string;
  /** The model as requested. */
  model: string;
  /** Sessions on core's first listing page; 0 when listing fails (D11.6). */
  session_count: number;
  /** Present only when `message` was sent and core returned thinking text. */
  thinking?: string;
}

export interface DeleteSessionsResult {
  success: boolean;
  message: string;
  deleted: number;
}

export interface AccountOps {
  /**
   * D11.6: always logs in afresh (token-only accounts use their token), creates a session, sends the
   * message when non-empty. Takes no pool slot. `identifier` is the normalised account identifier (D8.1)
   * of a configured account. Resolves with success:false rather than throwing on upstream failures.
   * The admin route records test_status via ctx.accounts.mark.
   */
  test(identifier: string, opts: AccountTestOptions): Promise<AccountTestResult>;
  /** Deletes every core session of the account (core-upstream §10.5). Resolves success:false on failure. */
  deleteAllSessions(identifier: string): Promise<DeleteSessionsResult>;
}
