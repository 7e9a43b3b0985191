// The two references bench/gateway.ts measures the gateway against, run as their own processes so that their
// CPU and memory can be read from /proc like the gateway's:
//   same-calls: what any gateway in front of core must do — login once, then per request create a session,
//               create and solve a PoW challenge and call the completion; the answer is forwarded as it is.
//   bare:       forwards a completion the client already prepared (session, PoW) and nothing else.
//   reading:    same-calls, but core's body is read in JavaScript and each read is sent on as one SSE event of
//               its decoded text: the least any gateway that must read core's answer to translate it can do.
//   same-calls-worker: same-calls, but the PoW is solved in a worker thread (the gateway's own pool class), as
//               the brief requires of the gateway ("the PoW search runs off the event loop").
//   bun bench/gateway-proxy.ts <same-calls|same-calls-worker|bare|reading> <core url> <port> [email password]
import { parseChallenge, powHeader } from "../src/core/pow/challenge";
import { PowPool } from "../src/core/pow/pool";
import { solveChallenge } from "../tests/helpers/sim";

const [mode, core, port, email, password] = process.argv.slice(2) as [string, string, string, string?, string?];
const json = { "Content-Type": "application/json" };
let token = "";
const pool = mode === "same-calls-worker" ? new PowPool(1) : null;
/** The completion's PoW header: solved here, or in the worker for same-calls-worker. */
async function solvedHeader(raw: { algorithm?: string }): Promise<string> {
  if (!pool) return solveChallenge(raw);
  const ch = parseChallenge(raw, raw.algorithm ?? "");
  const answer = await pool.solve(ch);
  if (answer === null) throw new Error("no PoW answer below difficulty");
  return powHeader(ch, answer);
}
if (mode !== "bare") {
  const r = await (await fetch(`${core}/api/v0/users/login`, { method: "POST", headers: json, body: JSON.stringify({ email, password }) })).json();
  token = r.data.biz_data.user.token;
}
const call = async (path: string, body: unknown) =>
  (await (await fetch(`${core}${path}`, { method: "POST", headers: { ...json, authorization: `Bearer ${token}` }, body: JSON.stringify(body) })).json()).data.biz_data;

Bun.serve({
  port: Number(port),
  hostname: "127.0.0.1",
  idleTimeout: 0,
  async fetch(req) {
    if (req.method === "GET") return new Response("ready");
    if (mode === "bare") {
      const up = await fetch(`${core}/api/v0/chat/completion`, { method: "POST", headers: req.headers, body: await req.text() });
      return new Response(up.body, { headers: { "Content-Type": "text/event-stream" } });
    }
    const body = (await req.json()) as { stream?: boolean; messages: { content: string }[] };
    const session = await call("/api/v0/chat_session/create", { agent: "chat" });
    const pow = await solvedHeader((await call("/api/v0/chat/create_pow_challenge", { target_path: "/api/v0/chat/completion" })).challenge);
    const up = await fetch(`${core}/api/v0/chat/completion`, {
      method: "POST",
      headers: { ...json, authorization: `Bearer ${token}`, "x-core-pow-response": pow },
      body: JSON.stringify({ chat_session_id: session.id ?? session.chat_session.id, model_type: "default", parent_message_id: null, prompt: body.messages.at(-1)!.content, ref_file_ids: [], thinking_enabled: false, search_enabled: false }),
    });
    if (body.stream && mode === "reading") return new Response(translated(up.body!), { headers: { "Content-Type": "text/event-stream" } });
    if (body.stream) return new Response(up.body, { headers: { "Content-Type": "text/event-stream" } });
    return Response.json({ answer: await up.text() });
  },
});
console.log("ready");

/** Core's body read a chunk at a time, each read's text re-sent as one event. */
function translated(body: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  return new ReadableStream(
    {
      async pull(controller) {
        const r = await reader.read();
        if (r.done) return controller.close();
        controller.enqueue(encoder.encode(`data: ${JSON.stringify({ text: decoder.decode(r.value, { stream: true }) })}\n\n`));
      },
      cancel: (reason) => reader.cancel(reason),
    },
    { highWaterMark: 0 },
  );
}
