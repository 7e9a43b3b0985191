// Built-in scenarios (core-upstream §12.7) as round generators, and scenario selection (§12.8): the control
// queue first, then a `[[sim:<id> key=value …]]` directive in the prompt, then the default by flags.
import { demoAnswer, svcmlCall } from "./demo-model";
import { answerRound, contentFilterTail, continueRound, data, head, tokens, type MessageState, type Piece, type RoundSpec } from "./stream";

export type Params = Record<string, string | number>;

export interface Selected {
  id: string;
  params: Params;
}

export interface CompletionContext {
  prompt: string;
  spec: RoundSpec;
  /** Round 0 is the completion; 1… are continue calls. */
  round: number;
  state: MessageState;
  estimate(text: string): number;
}

/** A non-stream answer (HTTP status and JSON) or SSE pieces. */
export type RoundResult = { http: { status: number; json: unknown } } | { pieces: Piece[] };

export function directive(text: string): Selected | null {
  const m = /\[\[sim:([a-z0-9-]+)((?:\s+[a-z_]+=[^\s\]]+)*)\s*\]\]/i.exec(text);
  if (!m) return null;
  const params: Params = {};
  for (const kv of (m[2] ?? "").trim().split(/\s+/).filter(Boolean)) {
    const [k, v] = kv.split("=") as [string, string];
    params[k] = /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : v;
  }
  return { id: m[1]!.toLowerCase(), params };
}

const num = (p: Params, k: string, d: number) => (typeof p[k] === "number" ? (p[k] as number) : d);
const str = (p: Params, k: string, d: string) => (p[k] !== undefined ? String(p[k]) : d);

function answered(ctx: CompletionContext, a: { thinking: string; answer: string }, delayMs?: number): Piece[] {
  ctx.state.thinking = a.thinking;
  ctx.state.answer = a.answer;
  const usage = ctx.estimate(ctx.prompt) + ctx.estimate(a.answer);
  ctx.state.usage = usage;
  return answerRound(ctx.spec, { ...a, usage, delayMs }, { title: "Simulated chat" });
}

/** Produces one round of the selected scenario. `attempt` counts calls for scenarios that fail N times. */
export function playRound(sel: Selected, ctx: CompletionContext, attempt: number): RoundResult {
  const p = sel.params;
  const demo = () => demoAnswer(ctx.prompt, ctx.spec.thinkingEnabled);
  switch (sel.id) {
    case "tool-call": {
      let args: Record<string, unknown> = {};
      try {
        args = JSON.parse(str(p, "args", "{}"));
      } catch {}
      return { pieces: answered(ctx, { thinking: ctx.spec.thinkingEnabled ? "A tool is needed." : "", answer: svcmlCall(str(p, "name", "tool"), args) }) };
    }
    case "only-thinking":
      return { pieces: answered(ctx, { thinking: "Only thinking here, no answer.", answer: "" }) };
    case "empty-output":
      return { pieces: answered(ctx, { thinking: "", answer: "" }) };
    case "slow-tokens":
      return { pieces: answered(ctx, demo(), num(p, "delay_ms", 50)) };
    case "stall": {
      const a = demo();
      const pieces = answered(ctx, a);
      // Silence (no keep-alive) in the middle of the answer: for idle-timeout tests.
      pieces.splice(Math.min(6, pieces.length - 3), 0, { sleep: num(p, "ms", 2000) });
      return { pieces };
    }
    case "content-filter": {
      const a = demo();
      const pieces = answered(ctx, a).filter((x) => typeof x !== "string" || !/quasi_status|response\/status|close|update_session|title|TIP/.test(x));
      return { pieces: [...pieces, ...contentFilterTail(ctx.spec, ctx.state.usage)] };
    }
    case "incomplete-continue":
    case "incomplete-forever": {
      const rounds = sel.id === "incomplete-forever" ? Infinity : num(p, "rounds", 1);
      const unseen = str(p, "unseen", "ab").slice(0, 8);
      if (ctx.round === 0) {
        const a = { thinking: ctx.spec.thinkingEnabled ? "Counting carefully." : "", answer: "Part one of the answer " };
        ctx.state.thinking = a.thinking;
        ctx.state.answer = a.answer;
        ctx.state.usage = 100;
        return { pieces: answerRound(ctx.spec, { ...a, usage: 100 }, { tip: false, status: "INCOMPLETE", title: "Long answer" }) };
      }
      const more = ctx.round < rounds ? `and part ${ctx.round + 1} ` : "and the end.";
      const pieces = continueRound(ctx.spec, ctx.state, unseen, more, ctx.round < rounds ? "INCOMPLETE" : "FINISHED", 100 + 50 * ctx.round);
      ctx.state.answer += unseen + more;
      return { pieces };
    }
    case "error-input-too-long":
      return { pieces: [...head(ctx.spec), data({ type: "error", content: "内容超长，请删减后再试", clear_response: true, finish_reason: "input_exceeds_limit" })] };
    case "error-busy-json":
      if (attempt < num(p, "times", 1)) return { http: { status: 200, json: { msg: "有消息正在生成，请稍后再试" } } };
      return { pieces: answered(ctx, demo()) };
    case "error-busy-sse":
      if (attempt < num(p, "times", 1)) return { pieces: [...head(ctx.spec), data({ type: "error", content: "有消息正在生成，请稍后再试" })] };
      return { pieces: answered(ctx, demo()) };
    case "error-key": {
      const pieces = answered(ctx, demo()).slice(0, 6);
      return { pieces: [...pieces, data({ error: str(p, "value", "simulated failure") })] };
    }
    case "http-error":
      if (attempt < num(p, "times", 1)) return { http: { status: num(p, "status", 502), json: { code: 500, msg: "simulated upstream failure", data: null } } };
      return { pieces: answered(ctx, demo()) };
    case "http-429":
      return { http: { status: 429, json: { code: 429, msg: "too many requests", data: null } } };
    case "eof-mid-answer": {
      const pieces = answered(ctx, demo());
      return { pieces: [...pieces.slice(0, Math.min(7, pieces.length - 1)), 'data: {"v":"half', { abort: true }] };
    }
    case "eof-before-output":
      return { pieces: [...head(ctx.spec), { abort: true }] };
    case "echo": {
      // Answers with the prompt itself: lets tests see exactly what core received.
      return { pieces: answered(ctx, { thinking: "", answer: ctx.prompt }) };
    }
    case "words": {
      const n = num(p, "n", 50);
      return { pieces: answered(ctx, { thinking: ctx.spec.thinkingEnabled ? "Writing words." : "", answer: Array.from({ length: n }, (_, i) => `word${i}`).join(" ") }) };
    }
    default:
      return { pieces: answered(ctx, demo()) };
  }
}

export function tokenCount(text: string): number {
  return tokens(text).length;
}
