// Structured output around a turn (issue 16 item 5): startTurn, then the JSON stage on its events. The stage's
// one retry re-runs the turn with core's answer and what was wrong with it appended (an assistant turn and a
// user turn), collected without streaming; the prompt keeps the JSON block because the retry turn keeps the
// spec. A turn without JSON output is returned untouched.
import type { AppContext } from "../context";
import type { Caller } from "../accounts/caller";
import type { RequestState } from "../metering/request-state";
import { jsonOutputStage, type JsonRetryAnswer } from "../pipeline/json-output";
import type { RunningTurn } from "../turn/types";
import type { TurnRequest } from "../pipeline/types";
import { jsonRetryText } from "../prompt/json-instruction";
import { startTurn, turnResult } from "./business-turn";

/** The retry's request: the same turn plus the rejected answer and the correction. */
export function jsonRetryTurn(turn: TurnRequest, answer: string, problem: string): TurnRequest {
  return {
    ...turn,
    stream: false,
    turns: [...turn.turns, { role: "assistant", text: answer }, { role: "user", text: jsonRetryText(problem) }],
  };
}

export async function startTurnWithJsonOutput(ctx: AppContext, request: Request, state: RequestState, caller: Caller, turn: TurnRequest): Promise<RunningTurn> {
  const running = await startTurn(ctx, request, state, caller, turn);
  const spec = turn.jsonOutput;
  if (!spec) return running;
  const retry = async (answer: string, problem: string): Promise<JsonRetryAnswer | null> => {
    ctx.log.info("structured output: retrying once", { problem });
    try {
      const again = await startTurn(ctx, request, state, caller, jsonRetryTurn(turn, answer, problem));
      const result = await turnResult(again);
      return { text: result.text, usage: result.usage };
    } catch (e) {
      ctx.log.warn("structured output: the retry failed", { error: e instanceof Error ? e.message : String(e) });
      return null;
    }
  };
  // After the turn's own stages (history, request facts): they record the answer core gave, before the JSON rule.
  running.events = running.events.pipeThrough(jsonOutputStage({ spec, retry, warn: (msg, fields) => ctx.log.warn(msg, fields) }));
  return running;
}
