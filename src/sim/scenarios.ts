// The built-in scenarios (core-upstream §12.7) as script builders. Each turns its `params` and the request
// into a ScenarioScript; texts come from `params.think` / `params.answer`, else from the demo model.
import { declaredTools, svcmlCall, type DemoAnswer } from "./demo-model";
import { FILTER_TEMPLATE } from "./message-model";
import { replayScript } from "./replay";
import { splitText } from "./steps";
import type { Params, Round, ScenarioScript, Step } from "./types";

export const REFUSAL_SENTENCE = "抱歉，系统检测到您当前输入的信息存在敏感内容，我无法响应您的请求，请尝试更换其他合规话题重新提问。";
export const BUSY_TEXT = "有消息正在生成，请稍后再试";
export const TOO_LONG_TEXT = "内容超长，请删减后再试";

export interface BuildContext {
  thinking: boolean;
  search: boolean;
  demo: DemoAnswer;
  prompt: string;
  /** How many times this selection has answered before (for `times` failures). */
  attempt: number;
  /** The configured answers to an expired token and to a rejected PoW (§12.3, §12.4). */
  expiry(): { status: number; json: unknown };
  powRejection(): { status: number; json: unknown };
  /** Builds another scenario (`then`), or the default by flags when `id` is undefined. */
  build(id: string | undefined, params: Params): ScenarioScript;
}

type Builder = (p: Params, ctx: BuildContext) => ScenarioScript;

const num = (p: Params, k: string, d: number) => (typeof p[k] === "number" ? (p[k] as number) : typeof p[k] === "string" && p[k] !== "" && !Number.isNaN(Number(p[k])) ? Number(p[k]) : d);
const text = (p: Params, k: string, d: string) => (p[k] === undefined ? d : String(p[k]));

const HEAD: Step[] = [{ ready: {} }, { update_session: {} }];
const TAIL_NEWER: Step[] = [{ update_session: {} }, { title: "Simulated chat" }, { close: {} }];

function thinkText(p: Params, ctx: BuildContext): string {
  return text(p, "think", ctx.demo.thinking || "Thinking about the request.");
}
function answerText(p: Params, ctx: BuildContext): string {
  return text(p, "answer", ctx.demo.answer);
}

/** Snapshot holding the first token, the rest as a think step, `elapsed_secs`, then the answer. */
function thinkThenAnswer(think: string, answer: string, extra: Step = {}): Step[] {
  const t = splitText(think, "word");
  const steps: Step[] = [{ snapshot: { think: t[0] ?? "" } }];
  if (t.length > 1) steps.push({ think: t.slice(1).join(""), ...extra });
  steps.push({ think_end: { elapsed_secs: 0.765374503 } });
  if (answer !== "") steps.push({ answer, ...extra });
  return steps;
}

function answerOnly(answer: string, extra: Step = {}): Step[] {
  const a = splitText(answer, "word");
  const steps: Step[] = [{ snapshot: a.length ? { answer: a[0] } : {} }];
  if (a.length > 1) steps.push({ answer: a.slice(1).join(""), ...extra });
  return steps;
}

const single = (name: string, steps: Step[], extra: Partial<ScenarioScript> = {}): ScenarioScript => ({ name, shape: "newer", ...extra, rounds: [{ steps }] });
const httpRound = (name: string, r: { status: number; json: unknown }): ScenarioScript => ({ name, rounds: [{ http: r }] });

function thinkingAnswerTip(p: Params, ctx: BuildContext, name = "thinking-answer-tip"): ScenarioScript {
  return single(name, [...HEAD, ...thinkThenAnswer(thinkText(p, ctx), answerText(p, ctx)), { tip: "" }, { usage: {} }, { status: "FINISHED" }, ...TAIL_NEWER]);
}

function noThinking(p: Params, ctx: BuildContext, name = "no-thinking"): ScenarioScript {
  return single(name, [...HEAD, ...answerOnly(answerText(p, ctx)), { tip: "" }, { usage: {} }, { status: "FINISHED" }, ...TAIL_NEWER]);
}

/** The answer as it would be built by the default selection: with or without thinking. */
function plainAnswer(p: Params, ctx: BuildContext, answer: string): Step[] {
  return ctx.thinking ? thinkThenAnswer(thinkText(p, ctx), answer) : answerOnly(answer);
}

function searchReferences(p: Params, ctx: BuildContext): ScenarioScript {
  // Markers go in the middle and at the end of the answer, so the visible text stays the answer itself.
  const words = splitText(answerText(p, ctx), "word");
  const half = Math.max(1, Math.floor(words.length / 2));
  const [answer, after] = [words.slice(0, half).join(""), words.slice(half).join("")];
  return single("search-references", [
    ...HEAD,
    { snapshot: { think: "The" } },
    { think: " user wants a searched answer" },
    { think_end: { elapsed_secs: 1.426722585 } },
    {
      search: {
        queries: [text(p, "query", "simulator search"), "simulator search details"],
        results: [[{ url: "https://a.example/1", title: "Result A" }, { url: "https://a.example/2", title: "Result A2" }], [{ url: "https://b.example/1", title: "Result B" }]],
        order: [1, 0],
        keepalive: 1,
      },
    },
    { think: "The results agree", stage: 2 },
    { open: [{ search: 0, result: 0 }, { search: 1, result: 0 }] },
    { think: "Answer with citations", stage: 3 },
    { think_end: { elapsed_secs: 0.7 } },
    { answer },
    { cite: { open: 0 } },
    { cite: { search: 1 } },
    { answer: after },
    { cite: { open: 1 } },
    { tip: "" },
    { usage: {} },
    { status: "FINISHED" },
    ...TAIL_NEWER,
  ]);
}

/** INCOMPLETE rounds then a FINISHED one (§7.10); `phase: "thinking"` stops inside the reasoning, as observed. */
function incomplete(p: Params, ctx: BuildContext, forever: boolean): ScenarioScript {
  const rounds = forever ? 64 : Math.max(1, num(p, "rounds", 1));
  const unseen = text(p, "unseen", "ab");
  const inThinking = p.phase === "thinking";
  const incompleteTail = (first: boolean): Step[] => [
    { usage: { quasi: "INCOMPLETE" } },
    // Always an elapsed_secs SET here, as in the observed round (§7.17 I): it is what lets core omit the op
    // of the INCOMPLETE status that follows, the habit this scenario exists to exercise.
    { think_end: { elapsed_secs: inThinking ? 692.782077986 : 3.5 } },
    { status: "INCOMPLETE" },
    { finish: {} },
    { update_session: {} },
    ...(first ? [{ title: "Long answer" }] : []),
    { close: {} },
  ];
  const out: Round[] = [];
  const first = inThinking
    ? [...HEAD, { snapshot: { think: "Counting" } }, { think: " carefully, part one" }]
    : [...HEAD, ...(ctx.thinking ? thinkThenAnswer("Counting carefully.", text(p, "answer", "Part one of the answer ")) : answerOnly(text(p, "answer", "Part one of the answer ")))];
  out.push({ steps: [...first, ...incompleteTail(true)] });
  for (let r = 1; r <= rounds; r++) {
    const last = r === rounds && !forever;
    const open: Step[] = [{ ready: {} }, { keepalive: 1 }, { update_session: {} }, { snapshot: {} }];
    const more = last ? "and the end." : `and part ${r + 1} `;
    if (!last) out.push({ unseen, steps: [...open, inThinking ? { think: ` ${more}` } : { answer: more }, ...incompleteTail(false)] });
    else {
      const body: Step[] = inThinking ? [{ think: " done" }, { think_end: { elapsed_secs: 3.2 } }, { answer: text(p, "final", "The answer.") }] : [{ answer: more }];
      out.push({ unseen, steps: [...open, ...body, { usage: {} }, { status: "FINISHED" }, { finish: {} }, { update_session: {} }, { close: {} }] });
    }
  }
  return { name: forever ? "incomplete-forever" : "incomplete-continue", shape: "older", rounds: out };
}

/** `times` failures, then the scenario named by `then` (default: the default by flags). */
function failing(name: string, failure: (p: Params, ctx: BuildContext) => ScenarioScript): Builder {
  return (p, ctx) => (ctx.attempt < num(p, "times", 1) ? failure(p, ctx) : ctx.build(typeof p.then === "string" ? p.then : undefined, {}));
}

function toolArgs(p: Params): Record<string, unknown> {
  if (p.args && typeof p.args === "object") return p.args as Record<string, unknown>;
  try {
    const v = JSON.parse(text(p, "args", "{}"));
    return v && typeof v === "object" ? v : {};
  } catch {
    return {};
  }
}

const TINY_TOKENS = ["```", "mark", "down", "\n", "#", " ", "Title", "\n", "    ", "indented", "\n", "```", "\n", "é", "中文", "🙂", " ", "end"];

export const BUILTIN: Record<string, Builder> = {
  "thinking-answer": (p, ctx) => ({
    ...single("thinking-answer", [...HEAD, ...thinkThenAnswer(thinkText(p, ctx), answerText(p, ctx)), { usage: {} }, { status: "FINISHED" }, { finish: {} }, { update_session: {} }, { title: "Simulated chat" }, { close: {} }]),
    shape: "older",
  }),
  "thinking-answer-tip": (p, ctx) => thinkingAnswerTip(p, ctx),
  "no-thinking": (p, ctx) => noThinking(p, ctx),
  "only-thinking": (p, ctx) =>
    single("only-thinking", [...HEAD, ...thinkThenAnswer(thinkText(p, ctx), ""), { usage: {} }, { status: "FINISHED" }, { update_session: {} }, { close: {} }]),
  "search-references": searchReferences,
  "content-filter": (p, ctx) =>
    single("content-filter", [
      ...HEAD,
      { snapshot: { think: "Checking" } },
      { think: " the sources" },
      { think_end: { elapsed_secs: 0.5 } },
      { search: { queries: ["filtered topic"], results: [[{ url: "https://c.example/1", title: "C" }]] } },
      { answer: text(p, "answer", "This answer streams normally") },
      { cite: { search: 0 } },
      { answer: "," },
      { tip: "" },
      { usage: {} },
      { keepalive: 1 },
      { content_filter: {} },
      { finish: {} },
      { update_session: {} },
      { close: {} },
    ]),
  "content-filter-early": (p, ctx) =>
    single("content-filter-early", [...HEAD, ...thinkThenAnswer(thinkText(p, ctx), ""), { keepalive: 1 }, { content_filter: {} }, { finish: {} }, { update_session: {} }, { close: {} }]),
  "refusal-sentence": (p, ctx) => single("refusal-sentence", [...HEAD, ...plainAnswer(p, ctx, REFUSAL_SENTENCE), { usage: {} }, { status: "FINISHED" }, ...TAIL_NEWER]),
  "leaked-marker": (p, ctx) =>
    single("leaked-marker", [
      ...HEAD,
      ...plainAnswer(p, ctx, text(p, "answer", "Here is the start of the answer.")),
      { answer: ` CONTENT_FILTER${FILTER_TEMPLATE}`, chunk: "whole" },
      { usage: {} },
      { status: "FINISHED" },
      ...TAIL_NEWER,
    ]),
  "incomplete-continue": (p, ctx) => incomplete(p, ctx, false),
  "incomplete-forever": (p, ctx) => incomplete(p, ctx, true),
  "auto-continue": (p, ctx) => single("auto-continue", [...HEAD, { snapshot: { think: "Going", auto_continue: true } }, { think: " on and on" }, { eof: "clean" }]),
  "error-input-too-long": () => single("error-input-too-long", [{ ready: {} }, { type_error: { content: TOO_LONG_TEXT, clear_response: true, finish_reason: "input_exceeds_limit" } }]),
  "error-busy-sse": failing("error-busy-sse", () => single("error-busy-sse", [{ type_error: { content: BUSY_TEXT } }])),
  "error-busy-json": failing("error-busy-json", () => httpRound("error-busy-json", { status: 200, json: { msg: BUSY_TEXT } })),
  "error-invalid-ref-file": () => httpRound("error-invalid-ref-file", { status: 200, json: { code: 0, msg: "", data: { biz_code: 9, biz_msg: "invalid ref file id", biz_data: null } } }),
  "error-key": (p, ctx) => {
    const value = p.value !== undefined ? p.value : "simulated failure";
    return single("error-key", [...HEAD, ...plainAnswer(p, ctx, text(p, "answer", "Some answer text")), { error: value }]);
  },
  "error-code-content-filter": (p, ctx) => single("error-code-content-filter", [...HEAD, ...answerOnly(text(p, "answer", "Some answer text")), { code_content_filter: {} }]),
  "empty-output": () => single("empty-output", [...HEAD, { snapshot: {} }, { usage: {} }, { status: "FINISHED" }, { close: {} }]),
  "http-error": failing("http-error", (p) => httpRound("http-error", { status: num(p, "status", 502), json: { code: num(p, "status", 502), msg: "simulated upstream failure", data: null } })),
  "http-429": () => httpRound("http-429", { status: 429, json: { code: 429, msg: "too many requests", data: null } }),
  "auth-expired": (_p, ctx) => httpRound("auth-expired", ctx.expiry()),
  "pow-rejected": (_p, ctx) => httpRound("pow-rejected", ctx.powRejection()),
  "eof-mid-answer": (p, ctx) =>
    single("eof-mid-answer", [...HEAD, ...plainAnswer(p, ctx, text(p, "answer", "The answer starts and")), { raw: 'data: {"v":" brok' }, { eof: "abrupt" }]),
  "eof-before-output": () => single("eof-before-output", [{ ready: {} }, { eof: "abrupt" }]),
  "eof-after-status": (p, ctx) => single("eof-after-status", [...HEAD, ...plainAnswer(p, ctx, answerText(p, ctx)), { usage: {} }, { status: "FINISHED" }, { eof: "clean" }]),
  "eof-no-status": (p, ctx) => single("eof-no-status", [...HEAD, ...plainAnswer(p, ctx, text(p, "answer", "An answer that just stops")), { eof: "clean" }]),
  "keepalive-heavy": (p, ctx) => {
    const steps: Step[] = [...HEAD, { keepalive: 1 }];
    const a = splitText(answerText(p, ctx), "word");
    const t = splitText(thinkText(p, ctx), "word");
    steps.push({ snapshot: { think: t[0] ?? "" } });
    for (const tok of t.slice(1)) steps.push({ keepalive: 1 }, { think: tok, chunk: "whole" });
    steps.push({ keepalive: 1 }, { think_end: { elapsed_secs: 0.4 } });
    for (const tok of a) steps.push({ keepalive: 1 }, { answer: tok, chunk: "whole" });
    steps.push({ keepalive: 1 }, { usage: {} }, { keepalive: 1 }, { status: "FINISHED" }, { keepalive: 1 }, ...TAIL_NEWER);
    return single("keepalive-heavy", steps);
  },
  "tiny-chunks": (p, ctx) =>
    single(
      "tiny-chunks",
      [...HEAD, { snapshot: { think: "a" } }, { think: "bc dé", chunk: "char" }, { think_end: { elapsed_secs: 0.1 } }, { answer: TINY_TOKENS.join(""), chunk: TINY_TOKENS }, { usage: {} }, { status: "FINISHED" }, ...TAIL_NEWER],
      { transport: { write: (p.write as "byte") ?? "byte" } },
    ),
  "huge-chunks": (p) => {
    const size = num(p, "size", 2 * 1024 * 1024);
    const snap = num(p, "snapshot", 60_000);
    const think = "t".repeat(snap);
    return {
      name: "huge-chunks",
      shape: "older",
      rounds: [
        { steps: [...HEAD, { snapshot: { think: "t" } }, { think: think.slice(1), chunk: 1000 }, { usage: { quasi: "INCOMPLETE" } }, { think_end: { elapsed_secs: 60 } }, { status: "INCOMPLETE" }, { update_session: {} }, { close: {} }] },
        { unseen: "uu", steps: [{ ready: {} }, { keepalive: 1 }, { update_session: {} }, { snapshot: {} }, { answer: "x".repeat(size), chunk: "whole" }, { usage: {} }, { status: "FINISHED" }, { update_session: {} }, { close: {} }] },
      ],
    };
  },
  "slow-tokens": (p, ctx) => {
    const delay = num(p, "delay_ms", 50);
    // A test that names only delay_ms gets that delay before the first token too, not the 2 s default.
    const first = num(p, "first_token_ms", p.delay_ms !== undefined ? delay : 2000);
    const keepalive = num(p, "keepalive_ms", 1000);
    // snapshot_first: core accepts at once (an empty snapshot, which ends the gateway's head read) and only
    // then stays silent, as real core does before a slow first token: the gateway's own keep-alives run.
    const answer = p.snapshot_first === true ? [{ snapshot: {} }, { sleep: { ms: first, keepalive_ms: keepalive } }, { answer: answerText(p, ctx) }] : [{ sleep: { ms: first, keepalive_ms: keepalive } }, ...plainAnswer(p, ctx, answerText(p, ctx))];
    const steps = [...HEAD, ...answer, { tip: "" }, { usage: {} }, { status: "FINISHED" }, ...TAIL_NEWER];
    return { ...single("slow-tokens", steps), defaults: { delay_ms: delay } };
  },
  stall: (p, ctx) => {
    const a = splitText(answerText(p, ctx), "word");
    const half = Math.max(1, Math.floor(a.length / 2));
    return single("stall", [
      ...HEAD,
      ...answerOnly(a.slice(0, half).join("")),
      { sleep: num(p, "ms", 2000) },
      { answer: a.slice(half).join("") },
      { usage: {} },
      { status: "FINISHED" },
      ...TAIL_NEWER,
    ]);
  },
  "legacy-shapes": (p, ctx) => {
    const steps: Step[] = [{ ready: { omit_model_type: true } }];
    if (ctx.thinking) steps.push({ message: { p: "response/thinking_content", v: thinkText(p, ctx) } });
    for (const tok of splitText(answerText(p, ctx), "word")) steps.push({ message: { p: "response/content", v: tok } });
    steps.push({ message: { p: "response/content", v: { text: text(p, "object_text", "") } } }, { raw: "data: [DONE]\n\n" });
    return single("legacy-shapes", steps);
  },
  "tool-call": (p, ctx) => {
    const name = text(p, "name", "get_weather");
    // The declared schema, read from the tool list in the prompt as a model would.
    const declared = declaredTools(ctx.prompt ?? "").find((t) => t.name.toLowerCase() === name.toLowerCase());
    const call = svcmlCall(name, toolArgs(p), declared?.schema);
    const answer = p.prefix !== undefined ? `${text(p, "prefix", "")}\n\n${call}` : call;
    return ctx.thinking ? thinkingAnswerTip({ think: "A tool call is needed.", answer }, ctx, "tool-call") : noThinking({ answer }, ctx, "tool-call");
  },
  replay: (p) => replayScript(p),
  // Simulator extras: the prompt as the answer (what core received), and `n` numbered words.
  echo: (_p, ctx) => noThinking({ answer: ctx.prompt }, { ...ctx }, "echo"),
  words: (p, ctx) => {
    const answer = Array.from({ length: num(p, "n", 50) }, (_, i) => `word${i}`).join(" ");
    return ctx.thinking ? thinkingAnswerTip({ think: "Writing words.", answer }, ctx, "words") : noThinking({ answer }, ctx, "words");
  },
};

/** §12.8 step 3: search → search-references (unless the answer is a tool call), thinking → thinking-answer-tip, else no-thinking. */
export function defaultScenario(ctx: BuildContext): ScenarioScript {
  if (ctx.search && !ctx.demo.toolCall) return searchReferences({}, ctx);
  if (ctx.thinking) return thinkingAnswerTip({}, ctx);
  return noThinking({}, ctx);
}
