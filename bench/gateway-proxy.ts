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
import { PowPool } from "../src/core/pow/pool";
import { solveChallenge } from "../tests/helpers/sim";
import { loginToCore, poolPowHeader, serveReference, sessionIdOf, type CoreSession } from "./reference-core";

const [mode, core, port, email, password] = process.argv.slice(2) as [string, string, string, string?, string?];
const pool = mode === "same-calls-worker" ? new PowPool(1) : null;
const session: CoreSession | null = mode === "bare" ? null : await loginToCore(core, email!, password!);

serveReference(port, async (req) => {
  if (!session) {
    const up = await fetch(`${core}/api/v0/chat/completion`, { method: "POST", headers: req.headers, body: await req.text() });
    return new Response(up.body, { headers: { "Content-Type": "text/event-stream" } });
  }
  const body = (await req.json()) as { stream?: boolean; messages: { content: string }[] };
  const created = await session.call("/api/v0/chat_session/create", { agent: "chat" });
  const raw = (await session.call("/api/v0/chat/create_pow_challenge", { target_path: "/api/v0/chat/completion" })).challenge;
  // The PoW solved here, or in the worker for same-calls-worker.
  const pow = pool ? await poolPowHeader(pool, raw) : solveChallenge(raw);
  const up = await session.completion(sessionIdOf(created), body.messages.at(-1)!.content, pow);
  if (body.stream && mode === "reading") return new Response(translated(up.body!), { headers: { "Content-Type": "text/event-stream" } });
  if (body.stream) return new Response(up.body, { headers: { "Content-Type": "text/event-stream" } });
  return Response.json({ answer: await up.text() });
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
