// Test helpers for the core simulator: start one on port 0 with a small PoW difficulty and a virtual clock,
// and a tiny raw client of core's wire protocol (login, session, PoW solved by brute force, completion,
// continue, upload, polls) for tests that talk to the simulator without the gateway.
import { parseChallenge, powHeader } from "../../src/core/pow/challenge";
import { solveRange } from "../../src/core/pow/solve";
import { startCoreSimulator, type CoreSimulator, type SimOptions } from "../../src/sim/index";

export const TEST_ACCOUNTS = [
  { email: "a@sim.test", password: "pw" },
  { mobile: "13800138000", password: "pw2" },
];

/** A simulator for one test file: port 0, difficulty 1000, virtual clock, seed 42, two accounts unless given. */
export function startTestSimulator(opts: SimOptions = {}): Promise<CoreSimulator> {
  return startCoreSimulator({ seed: 42, difficulty: 1000, clock: "virtual", accounts: TEST_ACCOUNTS, ...opts });
}

/** Runs `fn` against a fresh simulator and always stops it. */
export async function withSimulator<T>(opts: SimOptions, fn: (sim: CoreSimulator) => Promise<T>): Promise<T> {
  const sim = await startTestSimulator(opts);
  try {
    return await fn(sim);
  } finally {
    await sim.stop();
  }
}

/**
 * Solves a challenge as the gateway would: validated by parseChallenge, searched by solveRange (the
 * project's own search, so a simulator issuing bad digests fails here), answered in core's header format.
 */
export function solveChallenge(raw: unknown): string {
  const ch = parseChallenge(raw, (raw as { algorithm?: unknown })?.algorithm as string);
  const answer = solveRange({ salt: ch.salt, expireAt: ch.expire_at, difficulty: ch.difficulty, target: Buffer.from(ch.challenge, "hex") });
  if (answer === null) throw new Error("no PoW answer below difficulty");
  return powHeader(ch, answer);
}

export interface CompletionOpts {
  thinking?: boolean;
  search?: boolean;
  refFileIds?: string[];
  pow?: string;
  parent?: number | null;
  modelType?: string;
}

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

  /** Logs in as one of TEST_ACCOUNTS (or any credentials) and keeps the token for later calls. */
  async loginAs(account: { email?: string; mobile?: string; password: string }): Promise<string> {
    await this.login(account.email ? { email: account.email, password: account.password } : { mobile: account.mobile, area_code: null, password: account.password });
    if (!this.token) throw new Error("login failed");
    return this.token;
  }

  /** The brief's name for session(): a new chat session id, whichever answer shape core chose. */
  createSession(): Promise<string> {
    return this.session();
  }

  /** A fresh challenge for `target`, solved into the x-core-pow-response header value. */
  solvePow(target = "/api/v0/chat/completion"): Promise<string> {
    return this.pow(target);
  }

  /** A completion answered as text: the raw SSE body (or the JSON of a non-stream answer), byte for byte. */
  async completionText(session: string, prompt: string, opts: CompletionOpts = {}): Promise<string> {
    return (await this.completion(session, prompt, opts)).text();
  }

  async session(): Promise<string> {
    const j = await (await this.call("/api/v0/chat_session/create", { agent: "chat" })).json();
    return j.data.biz_data.id ?? j.data.biz_data.chat_session.id;
  }

  async challenge(target = "/api/v0/chat/completion"): Promise<any> {
    const j = await (await this.call("/api/v0/chat/create_pow_challenge", { target_path: target })).json();
    return j.data.biz_data.challenge;
  }

  async pow(target = "/api/v0/chat/completion"): Promise<string> {
    return solveChallenge(await this.challenge(target));
  }

  async completion(session: string, prompt: string, opts: CompletionOpts = {}): Promise<Response> {
    return this.call(
      "/api/v0/chat/completion",
      {
        chat_session_id: session,
        model_type: opts.modelType ?? "default",
        parent_message_id: opts.parent ?? null,
        prompt,
        ref_file_ids: opts.refFileIds ?? [],
        thinking_enabled: opts.thinking ?? false,
        search_enabled: opts.search ?? false,
      },
      { "x-core-pow-response": opts.pow ?? (await this.pow()) },
    );
  }

  async continue(session: string, messageId: number, pow?: string): Promise<Response> {
    return this.call("/api/v0/chat/continue", { chat_session_id: session, message_id: messageId, fallback_to_resume: true }, { "x-core-pow-response": pow ?? (await this.pow()) });
  }

  async upload(name: string, content: string, type = "text/plain", headers: Record<string, string> = {}): Promise<Response> {
    const form = new FormData();
    form.append("file", new File([content], name, { type }));
    return fetch(`${this.url}/api/v0/file/upload_file`, {
      method: "POST",
      headers: { authorization: `Bearer ${this.token}`, "x-core-pow-response": await this.pow("/api/v0/file/upload_file"), "x-file-size": String(new Blob([content]).size), "x-thinking-enabled": "1", "x-model-type": "default", ...headers },
      body: form,
    });
  }

  async fetchFiles(id: string): Promise<any> {
    return (await this.call(`/api/v0/file/fetch_files?file_ids=${encodeURIComponent(id)}`)).json();
  }
}

/** The `data:` payloads of an SSE body, parsed (non-JSON data lines are returned as strings). */
export function dataPayloads(body: string): any[] {
  return body
    .split("\n")
    .filter((l) => l.startsWith("data: "))
    .map((l) => {
      try {
        return JSON.parse(l.slice(6));
      } catch {
        return l.slice(6);
      }
    });
}
