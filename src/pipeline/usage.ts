// Usage (D9.7, core-upstream §7.12): core's accumulated_token_usage is the turn's total when present;
// otherwise every figure is the local estimate. Output counts thinking (hidden or not) plus visible text.
import { estimateTokens } from "./token-estimate";
import type { Usage } from "./types";

export function computeUsage(input: { upstreamTotal?: number; promptEstimate: number; reasoningText: string; answerText: string }): Usage {
  const reasoning = estimateTokens(input.reasoningText);
  const answer = estimateTokens(input.answerText);
  if (typeof input.upstreamTotal === "number" && Number.isFinite(input.upstreamTotal) && input.upstreamTotal >= 0) {
    const total = Math.floor(input.upstreamTotal);
    const prompt = Math.min(input.promptEstimate, total);
    const completion = total - prompt;
    return { promptTokens: prompt, completionTokens: completion, reasoningTokens: Math.min(reasoning, completion), totalTokens: total };
  }
  const completion = reasoning + answer;
  return { promptTokens: input.promptEstimate, completionTokens: completion, reasoningTokens: reasoning, totalTokens: input.promptEstimate + completion };
}
