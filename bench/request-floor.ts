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
import { PowPool } from "../src/core/pow/pool";
import { corsPlugin } from "../src/http/cors";
import { ChatBody } from "../src/surfaces/chat/schema";
import { floorAnswer } from "./floor-answer";
import { JSON_HEADERS, loginToCore, serveReference } from "./reference-core";

const [mode, core, port, email, password] = process.argv.slice(2) as ["bun" | "elysia", string, string, string, string];
const KEY = "sk-bench";
const pool = new PowPool(1);
const session = await loginToCore(core, email, password);

/** The request's work once its body is parsed and its key checked. */
async function answer(body: { messages: { content: unknown }[] }, started: number): Promise<Response> {
  const text = await floorAnswer(session, pool, body);
  writeSync(1, `{"ts":"${new Date().toISOString()}","level":"info","msg":"request","method":"POST","path":"/v1/chat/completions","status":200,"ms":${(performance.now() - started).toFixed(1)}}\n`);
  return new Response(text, { headers: { ...JSON_HEADERS, "x-request-id": `req_${crypto.randomUUID()}` } });
}

const unauthorized = () => Response.json({ error: { message: "bad key", type: "invalid_request_error" } }, { status: 401 });

if (mode === "bun") {
  serveReference(port, async (req) => {
    const started = performance.now();
    if (req.headers.get("authorization") !== `Bearer ${KEY}`) return unauthorized();
    return answer((await req.json()) as { messages: { content: unknown }[] }, started);
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
