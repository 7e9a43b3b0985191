// The structured-output stage (issue 16 item 5): a TransformStream of TurnEvent batches. Visible text is held
// back until the finish event, because fences and prose around the JSON can only be told apart once the whole
// answer is there; then the extracted JSON goes out as one text event, followed by the finish. Thinking,
// keep-alives and errors pass at once. A tool call switches the stage off for the rest of the turn (the held
// text goes out unchanged first): calls keep working in JSON mode, and the JSON rule is for final answers.
// With a schema, an answer that does not parse or fit is retried once through `retry` (the caller re-runs the
// turn); after that the answer goes out as it is and `warn` logs it.
import { extractJson, type ExtractedJson } from "./json-extract";
import { schemaProblem, wantedKind } from "./json-schema-check";
import type { JsonOutputSpec, TurnEvent, Usage } from "./types";

export interface JsonRetryAnswer {
  text: string;
  usage?: Usage;
}

export interface JsonOutputOptions {
  spec: JsonOutputSpec;
  /** Runs the turn once more, core told `problem`; null when that run failed. */
  retry?: (answer: string, problem: string) => Promise<JsonRetryAnswer | null>;
  warn?: (msg: string, fields?: Record<string, unknown>) => void;
}

/** The JSON of `text` checked against the spec: not ok when nothing parses, or when the value misses the schema. */
export function evaluateJson(text: string, spec: JsonOutputSpec): ExtractedJson {
  const schema = spec.kind === "json_schema" ? spec.schema : undefined;
  const want = spec.kind === "json_object" ? "object" : wantedKind(schema);
  const found = extractJson(text, want);
  if (!found.ok) return found;
  const problem = spec.kind === "json_object" ? (schemaProblem(found.value, { type: "object" }) ?? null) : schemaProblem(found.value, schema);
  return problem ? { ...found, ok: false, problem } : found;
}

const addUsage = (a: Usage, b: Usage | undefined): Usage =>
  b
    ? {
        promptTokens: a.promptTokens + b.promptTokens,
        completionTokens: a.completionTokens + b.completionTokens,
        reasoningTokens: a.reasoningTokens + b.reasoningTokens,
        totalTokens: a.totalTokens + b.totalTokens,
      }
    : a;

/** The text to send for a finished answer, after at most one retry; the usage grows by the retry's. */
export async function settleJson(answer: string, usage: Usage, opts: JsonOutputOptions): Promise<{ text: string; usage: Usage }> {
  const first = evaluateJson(answer, opts.spec);
  if (first.ok) return { text: first.json, usage };
  // Only a schema is worth a second core call: without one, any parsed value is accepted as it is.
  if (opts.spec.kind !== "json_schema" || !opts.retry) {
    opts.warn?.("structured output: the answer is not the requested JSON; returned as is", { problem: first.problem });
    return { text: first.json, usage };
  }
  const again = await opts.retry(answer, first.problem ?? "the answer is not valid JSON").catch(() => null);
  if (!again) {
    opts.warn?.("structured output: the retry failed; the first answer is returned as is", { problem: first.problem });
    return { text: first.json, usage };
  }
  const second = evaluateJson(again.text, opts.spec);
  if (!second.ok) opts.warn?.("structured output: still not the requested JSON after one retry; returned as is", { first: first.problem, retry: second.problem });
  return { text: second.json, usage: addUsage(usage, again.usage) };
}

export function jsonOutputStage(opts: JsonOutputOptions): TransformStream<TurnEvent[], TurnEvent[]> {
  let held = "";
  let passThrough = false;
  const release = (out: TurnEvent[]) => {
    if (held !== "") out.push({ type: "text", text: held });
    held = "";
  };
  // Not a SyncTransformer: the finish may wait for the retry's core call, and the stream holds the next batch
  // back meanwhile.
  return new TransformStream<TurnEvent[], TurnEvent[]>({
    async transform(batch, c) {
      const out: TurnEvent[] = [];
      for (const ev of batch) {
        if (passThrough) {
          out.push(ev);
          continue;
        }
        switch (ev.type) {
          case "text":
            held += ev.text;
            continue;
          case "call_start":
            passThrough = true;
            release(out);
            out.push(ev);
            continue;
          case "error":
            // The answer is incomplete anyway: what was held goes out before the error, as it would have unbuffered.
            passThrough = true;
            release(out);
            out.push(ev);
            continue;
          case "finish": {
            passThrough = true;
            // A filtered answer is not retried: asking again for the same content is not a format problem (D9.5).
            const settled = await settleJson(held, ev.usage, ev.outcome === "content_filter" ? { ...opts, retry: undefined } : opts);
            held = "";
            if (settled.text !== "") out.push({ type: "text", text: settled.text });
            out.push({ ...ev, usage: settled.usage });
            continue;
          }
          default:
            out.push(ev);
        }
      }
      if (out.length > 0) c.enqueue(out);
    },
    flush(c) {
      // A stream that ended without a finish event (cancelled upstream): nothing is invented, the text is kept.
      if (passThrough) return;
      const out: TurnEvent[] = [];
      release(out);
      if (out.length > 0) c.enqueue(out);
    },
  });
}
