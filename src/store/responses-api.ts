// What the /v1/responses routes need from the stored responses (D10.2), whichever backend holds them: this
// process (responses.ts, the default) or Redis shared by every instance (src/shared-state/redis-responses.ts).
import type { Turn } from "../pipeline/types";

export interface StoredResponse {
  owner: string;
  response: Record<string, unknown> & { id: string };
  /** The conversation that produced it, for previous_response_id. */
  inputTurns: Turn[];
  /** The answer as assistant turns. */
  outputTurns: Turn[];
  updatedAt: number;
}

type MaybePromise<T> = T | Promise<T>;

export interface ResponsesStore {
  /** Stores or replaces; TTL counted from this update. Never throws: a response that cannot be stored is logged. */
  put(entry: Omit<StoredResponse, "updatedAt">): MaybePromise<void>;
  /** Undefined when absent, expired or another owner's. A shared store that is down throws a 503. */
  get(id: string, owner: string): MaybePromise<StoredResponse | undefined>;
  delete(id: string, owner: string): MaybePromise<boolean>;
  close(): void;
}
