// The gateway's chat route cut short at named points (bench/path-split.ts): each cut keeps the gateway's edge —
// key check, body, request state, access line, request log, metrics — and answers with less of its own path
// behind it, so the difference between two cuts is what the part between them costs inside the running gateway
// (where code runs several times slower than in a loop: docs/PERFORMANCE.md, ninth wave).
//   floor-answer  the floor's answer (bench/floor-answer.ts): direct calls to core, the gateway's answer path
//   core-client   the gateway's core client (session and PoW side by side, the completion's head check, joined
//                 rounds and idle watch), its frames through the same answer path
//   one-attempt   the turn's preparation, a lease from the pool, the account's token, one attempt as the runner
//                 starts it (prompt, captures, timeline, pacing, detector steps), read to its end
//   runner        the turn runner (lifetime, start deadline, failover, reader, taps' stream) without the chat
//                 history and the JSON-output wrapper
// The gateway's own route is the fifth point.
import type { AppContext } from "../../src/context";
import type { Caller } from "../../src/accounts/caller";
import type { RequestState } from "../../src/metering/request-state";
import { PowPool } from "../../src/core/pow/pool";
import { runAccountAttempts } from "../../src/core/attempt";
import { asFrameSource, type CoreFrame } from "../../src/core/completion";
import { Timeline } from "../../src/metering/timeline";
import { collectFrom } from "../../src/pipeline/collect-turn";
import { prepareTurn, turnResult } from "../../src/surfaces/business-turn";
import { normalizeChat } from "../../src/surfaces/chat/normalize";
import { renderChatCompletion } from "../../src/surfaces/chat/render";
import { BusinessTurnDeps } from "../../src/surfaces/turn-deps";
import { runAttempt } from "../../src/turn/attempt";
import { runTurn } from "../../src/turn/runner";
import { answerOfFrames, chatTurn, promptOf } from "../answer-path";
import { floorAnswer } from "../floor-answer";
import { JSON_HEADERS, loginToCore, type CoreSession } from "../reference-core";

export const CUTS = ["floor-answer", "core-client", "one-attempt", "runner"] as const;
export type Cut = (typeof CUTS)[number];

type Body = { messages: { content: unknown }[] };
export type CutHandler = (c: { request: Request; body: unknown; caller: Caller; reqState: RequestState }) => Promise<Response>;

/** The account the floor's own calls use: not one of the gateway's (path-split.ts configures a, b and c). */
const OWN = { email: "d@bench.test", password: "pw-d" };

const answer = (text: string) => new Response(text, { headers: JSON_HEADERS });

export function cutHandler(cut: Cut, ctx: AppContext): CutHandler {
  let session: Promise<CoreSession> | null = null;
  let token: Promise<string> | null = null;
  const pool = cut === "floor-answer" ? new PowPool(1) : null;
  switch (cut) {
    case "floor-answer":
      return async ({ body }) => answer(await floorAnswer(await (session ??= loginToCore(ctx.core.baseUrl, OWN.email, OWN.password)), pool!, body as Body));
    case "core-client":
      return async ({ request, body }) => {
        const prompt = promptOf(chatTurn(String((body as Body).messages.at(-1)!.content)));
        const t = await (token ??= ctx.core.login(OWN as never));
        const c = await runAccountAttempts({ client: ctx.core, token: t, signal: request.signal, request: { modelType: "default", prompt, refFileIds: [], thinking: false, search: false, passThrough: {} } });
        const source = asFrameSource(c)!;
        const frames: CoreFrame[] = [];
        for (let b = await source.next(); b; b = await source.next()) for (const f of b) frames.push(f);
        return answer(answerOfFrames(frames, prompt));
      };
    case "one-attempt":
      return async ({ request, body, caller, reqState }) => {
        const turn = prepareTurn(ctx, reqState, body as Record<string, unknown>, "chat", normalizeChat(body as never));
        const tl = (reqState.timeline ??= new Timeline(reqState.start));
        const lease = await ctx.pool.acquire({ exclude: new Set(), signal: request.signal });
        try {
          const t = await ctx.accounts.token(lease.account, { signal: request.signal });
          const started = await runAttempt(ctx, turn, caller, reqState.id, tl, { account: lease.account, token: t, forceFileMode: false, signal: request.signal });
          reqState.account = lease.account;
          // Read as the runner's collector reads (no stream), so the next row adds only the runner.
          const result = await collectFrom(started.source!, null);
          return answer(JSON.stringify(renderChatCompletion({ id: `chatcmpl-${started.sessionId}`, created: Math.floor(ctx.now() / 1000), model: turn.requestedModel, exposeThinking: false }, result)));
        } finally {
          lease.release();
        }
      };
    case "runner":
      return async ({ request, body, caller, reqState }) => {
        const turn = prepareTurn(ctx, reqState, body as Record<string, unknown>, "chat", normalizeChat(body as never));
        const tl = (reqState.timeline ??= new Timeline(reqState.start));
        const running = await runTurn(new BusinessTurnDeps(ctx, turn, caller, reqState.id, tl, undefined), turn, caller, request.signal);
        reqState.account = running.account ?? "";
        const result = await turnResult(running);
        return answer(JSON.stringify(renderChatCompletion({ id: `chatcmpl-${running.sessionId}`, created: Math.floor(ctx.now() / 1000), model: turn.requestedModel, exposeThinking: false }, result)));
      };
  }
}
