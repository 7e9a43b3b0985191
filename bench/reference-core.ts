// What the reference processes (bench/gateway-proxy.ts, bench/request-floor.ts) share: logging in to core, its
// JSON calls, the PoW solved in the gateway's worker pool, the completion call, and a plain loopback server.
import { parseChallenge, powHeader } from "../src/core/pow/challenge";
import { PowPool } from "../src/core/pow/pool";

export const JSON_HEADERS = { "Content-Type": "application/json" };

export interface CoreSession {
  token: string;
  /** A JSON call to core; its `data.biz_data`. */
  call(path: string, body: unknown): Promise<any>;
  /** The completion for `prompt`, with a solved PoW header. */
  completion(sessionId: string, prompt: string, pow: string): Promise<Response>;
}

export async function loginToCore(core: string, email: string, password: string): Promise<CoreSession> {
  const r = await (await fetch(`${core}/api/v0/users/login`, { method: "POST", headers: JSON_HEADERS, body: JSON.stringify({ email, password }) })).json();
  const token: string = r.data.biz_data.user.token;
  const auth = { ...JSON_HEADERS, authorization: `Bearer ${token}` };
  return {
    token,
    call: async (path, body) => (await (await fetch(`${core}${path}`, { method: "POST", headers: auth, body: JSON.stringify(body) })).json()).data.biz_data,
    completion: (sessionId, prompt, pow) =>
      fetch(`${core}/api/v0/chat/completion`, {
        method: "POST",
        headers: { ...auth, "x-core-pow-response": pow },
        body: JSON.stringify({ chat_session_id: sessionId, model_type: "default", parent_message_id: null, prompt, ref_file_ids: [], thinking_enabled: false, search_enabled: false }),
      }),
  };
}

/** The session's id as core's create answer gives it (both shapes core-upstream allows). */
export function sessionIdOf(session: { id?: string; chat_session?: { id: string } }): string {
  return session.id ?? session.chat_session!.id;
}

/** The completion's PoW header, the challenge solved in `pool` (the brief's rule: off the event loop). */
export async function poolPowHeader(pool: PowPool, raw: { algorithm?: string }): Promise<string> {
  const ch = parseChallenge(raw, raw.algorithm ?? "");
  const answer = await pool.solve(ch);
  if (answer === null) throw new Error("no PoW answer below difficulty");
  return powHeader(ch, answer);
}

/** A loopback server that answers GET with "ready" (what the benches wait for) and POSTs with `post`. */
export function serveReference(port: string, post: (req: Request) => Response | Promise<Response>): void {
  Bun.serve({
    port: Number(port),
    hostname: "127.0.0.1",
    idleTimeout: 0,
    fetch: (req) => (req.method === "GET" ? new Response("ready") : post(req)),
  });
}
