// The least a gateway on this stack must do for a non-stream chat request (issue 35 target 3): references in a
// process of their own, to size how far the gateway's main thread could come down by a different shape of its
// request path. Each one authenticates the bearer key, creates the session and solves the PoW side by side (the
// PoW in the gateway's worker pool, as the brief requires), reads core's completion through a reader (as the idle
// timeout needs), answers with the gateway's own answer path (bench/answer-path.ts: decode, reduce, assemble,
// render) and writes a JSON access line — and nothing else: no streams between the stages, no turn runner, no
// failover, no bookkeeping.
//   bun:    on Bun.serve directly.
//   elysia: the same inside an Elysia app with the gateway's CORS plugin and its ChatBody schema on the route.
//   bun bench/request-floor.ts <bun|elysia> <core url> <port> <email> <password>   (ready when GET / answers)
import { writeSync } from "node:fs";
import { Elysia } from "elysia";
import { parseChallenge, powHeader } from "../src/core/pow/challenge";
import { PowPool } from "../src/core/pow/pool";
import { corsPlugin } from "../src/http/cors";
import { ChatBody } from "../src/surfaces/chat/schema";
import { answerJson, chatTurn, promptOf } from "./answer-path";

const [mode, core, port, email, password] = process.argv.slice(2) as ["bun" | "elysia", string, string, string, string];
const KEY = "sk-bench";
const json = { "Content-Type": "application/json" };
const pool = new PowPool(1);
const login = await (await fetch(`${core}/api/v0/users/login`, { method: "POST", headers: json, body: JSON.stringify({ email, password }) })).json();
const token: string = login.data.biz_data.user.token;
const call = async (path: string, body: unknown) =>
  (await (await fetch(`${core}${path}`, { method: "POST", headers: { ...json, authorization: `Bearer ${token}` }, body: JSON.stringify(body) })).json()).data.biz_data;

async function solvedPow(): Promise<string> {
  const raw = (await call("/api/v0/chat/create_pow_challenge", { target_path: "/api/v0/chat/completion" })).challenge;
  const ch = parseChallenge(raw, raw.algorithm ?? "");
  const answer = await pool.solve(ch);
  if (answer === null) throw new Error("no PoW answer below difficulty");
  return powHeader(ch, answer);
}

/** The request's work once its body is parsed and its key checked. */
async function answer(body: { messages: { content: unknown }[] }, started: number): Promise<Response> {
  const turn = chatTurn(String(body.messages.at(-1)!.content));
  const prompt = promptOf(turn);
  const [session, pow] = await Promise.all([call("/api/v0/chat_session/create", { agent: "chat" }), solvedPow()]);
  const up = await fetch(`${core}/api/v0/chat/completion`, {
    method: "POST",
    headers: { ...json, authorization: `Bearer ${token}`, "x-core-pow-response": pow },
    body: JSON.stringify({ chat_session_id: session.id ?? session.chat_session.id, model_type: "default", parent_message_id: null, prompt, ref_file_ids: [], thinking_enabled: false, search_enabled: false }),
  });
  const reader = up.body!.getReader();
  const chunks: Uint8Array[] = [];
  for (;;) {
    const r = await reader.read();
    if (r.done) break;
    chunks.push(r.value);
  }
  const text = answerJson(chunks, prompt);
  writeSync(1, `{"ts":"${new Date().toISOString()}","level":"info","msg":"request","method":"POST","path":"/v1/chat/completions","status":200,"ms":${(performance.now() - started).toFixed(1)}}\n`);
  return new Response(text, { headers: { ...json, "x-request-id": `req_${crypto.randomUUID()}` } });
}

const unauthorized = () => Response.json({ error: { message: "bad key", type: "invalid_request_error" } }, { status: 401 });

if (mode === "bun") {
  Bun.serve({
    port: Number(port),
    hostname: "127.0.0.1",
    idleTimeout: 0,
    async fetch(req) {
      if (req.method === "GET") return new Response("ready");
      const started = performance.now();
      if (req.headers.get("authorization") !== `Bearer ${KEY}`) return unauthorized();
      return answer((await req.json()) as { messages: { content: unknown }[] }, started);
    },
  });
} else {
  new Elysia()
    .use(corsPlugin())
    .get("/", () => "ready")
    .post("/v1/chat/completions", ({ body }) => answer(body as { messages: { content: unknown }[] }, performance.now()), {
      body: ChatBody,
      beforeHandle: ({ request }) => (request.headers.get("authorization") === `Bearer ${KEY}` ? undefined : unauthorized()),
    })
    .listen({ port: Number(port), hostname: "127.0.0.1", idleTimeout: 0 });
}
// Exit on a signal as a process (not killed outright), so that `bun --cpu-prof` writes its profile.
for (const s of ["SIGINT", "SIGTERM"] as const) process.on(s, () => process.exit(0));
console.log("ready");
