// Who a business request comes from, as business authentication (src/http/business-auth.ts) established it.
// It lives beside the accounts because that is what it decides there: managed callers lease pool accounts,
// pass-through callers bring core's token; `pinned` names an account, `ownerHash` keys file affinity and stored
// responses. The turn runner, the request state and the account layer read it; none of them is the edge.
export interface Caller {
  mode: "managed" | "passthrough";
  token: string;
  /** caller:<16 hex> — safe to log. */
  fingerprint: string;
  /** Full sha256 of the credential: owner of stored responses (D0.3). */
  ownerHash: string;
  /** X-Svc-Target-Account (managed mode only), as sent; normalised by the account layer. */
  pinned?: string;
  /** X-Svc-Source, recorded in chat history (D3.8). */
  source: string;
}
