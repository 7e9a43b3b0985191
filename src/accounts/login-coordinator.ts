// How logins are coordinated when several instances share the accounts (issue 21, item 3). The memory
// backend has none: the manager's own single-flight map is enough in one process.
export interface LoginOutcome {
  token: string;
  /** False when another instance logged in and this one took its token (nothing to persist here). */
  ownLogin: boolean;
}

export interface LoginCoordinator {
  /**
   * Logs in with `login` while holding the account's cross-instance lock, unless the account's shared token
   * is no longer `stale` (the token this instance wants to replace, or undefined when it has none): another
   * instance already replaced it, so that token. When another instance holds the lock, waits for its token.
   */
  exclusive(id: string, stale: string | undefined, login: () => Promise<string>, failed: () => boolean): Promise<LoginOutcome>;
  /** Tokens other instances obtain are handed to `adopt` as they arrive. */
  follow(adopt: (id: string, token: string, at: number) => void): void;
}
