// D8.14 / core-upstream §9.3: a file belongs to the account (or pass-through token) that uploaded it; a
// request referencing it runs on that account. Remembered for 24 h.
import { invalidRequest } from "../util/invalid-request";
import type { Caller } from "./caller";

export const FILE_AFFINITY_TTL_MS = 24 * 3600_000;
const TTL_MS = FILE_AFFINITY_TTL_MS;

export interface Owner {
  /** Account identifier, or "" for a pass-through upload. */
  account: string;
  /** Owner hash of the pass-through token. */
  tokenHash?: string;
  at: number;
}

export class FileAffinity {
  private owners = new Map<string, Owner>();

  constructor(protected now: () => number = Date.now) {}

  remember(fileId: string, owner: { account: string | null; tokenHash?: string }): void {
    this.adopt(fileId, { account: owner.account ?? "", tokenHash: owner.tokenHash, at: this.now() });
  }

  /** Records an owner as it is (a shared backend replays other instances' uploads with their time). */
  protected adopt(fileId: string, owner: Owner): void {
    this.owners.set(fileId, owner);
    if (this.owners.size > 100_000) this.prune();
  }

  /** The account a request must run on because of the files it references; null when none is implied. */
  affinity(fileIds: readonly string[], caller: Caller): string | null {
    if (caller.mode !== "managed") return null;
    let account: string | null = null;
    for (const id of fileIds) {
      const o = this.owners.get(id);
      if (!o || this.now() - o.at > TTL_MS || !o.account) continue;
      if (account && account !== o.account)
        throw invalidRequest("The request references files uploaded through two different accounts.", "file_ids");
      account = o.account;
    }
    return account;
  }

  private prune(): void {
    const cutoff = this.now() - TTL_MS;
    for (const [id, o] of this.owners) if (o.at < cutoff) this.owners.delete(id);
  }
}
