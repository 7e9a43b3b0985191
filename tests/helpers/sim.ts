// A tiny raw client of core's wire protocol, for tests of the simulator itself.
import { parseChallenge, powHeader, targetBytes } from "../../src/core/pow/challenge";
import { solveRange } from "../../src/core/pow/solve";

export class RawCore {
  token = "";
  constructor(readonly url: string) {}

  async call(path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response> {
    return fetch(`${this.url}${path}`, {
      method: body === undefined ? "GET" : "POST",
      headers: { "Content-Type": "application/json", ...(this.token ? { authorization: `Bearer ${this.token}` } : {}), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  }

  async login(body: Record<string, unknown>): Promise<any> {
    const j = await (await this.call("/api/v0/users/login", body)).json();
    this.token = j?.data?.biz_data?.user?.token ?? "";
    return j;
  }

  async session(): Promise<string> {
    const j = await (await this.call("/api/v0/chat_session/create", { agent: "chat" })).json();
    return j.data.biz_data.id ?? j.data.biz_data.chat_session.id;
  }

  async pow(target = "/api/v0/chat/completion"): Promise<string> {
    const j = await (await this.call("/api/v0/chat/create_pow_challenge", { target_path: target })).json();
    const ch = parseChallenge(j.data.biz_data.challenge, "CoreHashV1");
    const answer = solveRange({ salt: ch.salt, expireAt: ch.expire_at, difficulty: ch.difficulty, target: targetBytes(ch) });
    return powHeader(ch, answer!);
  }

  async completion(session: string, prompt: string, opts: { thinking?: boolean; refFileIds?: string[]; pow?: string } = {}): Promise<Response> {
    return this.call(
      "/api/v0/chat/completion",
      { chat_session_id: session, model_type: "default", parent_message_id: null, prompt, ref_file_ids: opts.refFileIds ?? [], thinking_enabled: opts.thinking ?? false, search_enabled: false },
      { "x-core-pow-response": opts.pow ?? (await this.pow()) },
    );
  }
}
