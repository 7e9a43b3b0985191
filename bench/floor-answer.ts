// The floor's answer to a non-stream chat request (bench/request-floor.ts serves it; bench/path-split.ts runs it
// inside the gateway's own edge): the session and the PoW side by side (the PoW in a worker pool), the completion
// read through a reader, the gateway's answer path (answer-path.ts).
import type { PowPool } from "../src/core/pow/pool";
import { answerJson, chatTurn, promptOf } from "./answer-path";
import { poolPowHeader, sessionIdOf, type CoreSession } from "./reference-core";

/** `body`'s answer as the chat completion's JSON text. */
export async function floorAnswer(session: CoreSession, pool: PowPool, body: { messages: { content: unknown }[] }): Promise<string> {
  const turn = chatTurn(String(body.messages.at(-1)!.content));
  const prompt = promptOf(turn);
  const [created, pow] = await Promise.all([
    session.call("/api/v0/chat_session/create", { agent: "chat" }),
    session.call("/api/v0/chat/create_pow_challenge", { target_path: "/api/v0/chat/completion" }).then((r) => poolPowHeader(pool, r.challenge)),
  ]);
  const up = await session.completion(sessionIdOf(created), prompt, pow);
  const reader = up.body!.getReader();
  const chunks: Uint8Array[] = [];
  for (;;) {
    const r = await reader.read();
    if (r.done) break;
    chunks.push(r.value);
  }
  return answerJson(chunks, prompt);
}
