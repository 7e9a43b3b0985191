// svcml detector benchmark (issue 6, svcml-and-prompts.md §2.8). Throughput figures are the best of repeated
// runs over at least a second per row, so that they measure the optimised code a long-running gateway runs,
// not the interpreter tiers the engine starts in.
//
// Throughput (MB/s) is measured three ways: the whole text in one push, 4 KB pushes, and 64-character pushes.
// A push has a fixed cost of its own (one call through the state machine, whatever the chunk holds), which
// is reported separately in nanoseconds per push from 8-character pushes; a core stream pushes one token
// delta at a time. Linearity is the mean time for 1×, 10× and 100× the input (see below), and the time of
// each long shape (one value of 800 KB) in 16-character pushes.
import { SvcmlDetector, type DetectorOptions } from "../src/pipeline/svcml/detector";
import { agentMix, agentTurn, denseCalls, nearMissTags, prose } from "./detector-texts";

function chunksOf(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

function runOnce(chunks: string[], opts: DetectorOptions = {}): number {
  const d = new SvcmlDetector(opts);
  const t0 = performance.now();
  for (const c of chunks) d.push(c);
  d.flush();
  return performance.now() - t0;
}

/** Best time (ms) over repeated runs for at least `ms` milliseconds. */
function best(chunks: string[], ms = 1000, opts: DetectorOptions = {}): number {
  let min = Infinity;
  const end = performance.now() + ms;
  do min = Math.min(min, runOnce(chunks, opts));
  while (performance.now() < end);
  return min;
}

const texts: [string, string][] = [
  ["prose", prose],
  ["svcml-heavy: agent mix", agentMix],
  ["svcml-heavy: dense tiny calls", denseCalls],
  ["adversarial near-miss tags", nearMissTags],
];

// The throughput and per-push rows are measured together, round-robin, each keeping its best run, so that
// a slow stretch of a shared machine falls on every row alike instead of on whichever row ran during it.
interface Job {
  chunks: string[];
  opts: DetectorOptions;
  best: number;
  spent: number;
}
const jobs: Job[] = [];
const job = (text: string, size: number, opts: DetectorOptions = {}): Job => {
  const j = { chunks: chunksOf(text, size), opts, best: Infinity, spent: 0 };
  jobs.push(j);
  return j;
};
const throughput = texts.map(([, text]) => [text.length, 4096, 64].map((size) => job(text, size)));
// What the one-pass reader of complete canonical blocks adds: the same texts read tag by tag.
const tagByTag = texts.slice(1, 3).map(([, text]) => [text.length, 4096].map((size) => job(text, size, { wholeBlocks: false })));
const perPush = texts.slice(0, 3).map(([, text]) => job(text, 8));
const MS_PER_JOB = 1500;
while (jobs.some((j) => j.spent < MS_PER_JOB)) {
  for (const j of jobs) {
    if (j.spent >= MS_PER_JOB) continue;
    // A few runs per turn, so that short runs still leave the engine in its optimised code between turns.
    const turnEnd = j.spent + 100;
    while (j.spent < turnEnd) {
      const t = runOnce(j.chunks, j.opts);
      j.best = Math.min(j.best, t);
      j.spent += t;
    }
  }
}
const mbpsOf = (text: string, j: Job) => (text.length / 1e6 / (j.best / 1000)).toFixed(0);

const rows: [string, string][] = [];
texts.forEach(([name, text], k) => {
  rows.push([`${name} (MB/s: whole / 4 KB / 64 chars)`, throughput[k]!.map((j) => mbpsOf(text, j)).join(" / ")]);
});
texts.slice(1, 3).forEach(([name, text], k) => {
  rows.push([`${name}, tag by tag (MB/s: whole / 4 KB)`, tagByTag[k]!.map((j) => mbpsOf(text, j)).join(" / ")]);
});
texts.slice(0, 3).forEach(([name], k) => {
  const j = perPush[k]!;
  rows.push([`${name}: cost per 8-char push`, `${((j.best * 1e6) / j.chunks.length).toFixed(0)} ns`]);
});

// Linearity: whole agent turns (about 125 KB at 1x), so that every size holds the same mix. The same chunk
// list is pushed n times into one detector: the input is the unit repeated n times, while the harness holds
// only the unit, so the figure is the detector's growth, not the cache misses of a 12 MB test string. Each
// size does the same total work (100/n runs) and the mean per run is compared, so that garbage collection
// is counted alike: a best-of on short runs picks the runs no collection happened to fall into.
const unitChunks = chunksOf(agentTurn.repeat(50), 64);
function meanRun(n: number): number {
  let min = Infinity;
  for (let attempt = 0; attempt < 3; attempt++) {
    const runs = 100 / n;
    const t0 = performance.now();
    for (let r = 0; r < runs; r++) {
      const d = new SvcmlDetector();
      for (let k = 0; k < n; k++) for (const c of unitChunks) d.push(c);
      d.flush();
    }
    min = Math.min(min, (performance.now() - t0) / runs);
  }
  return min;
}
meanRun(1);
const [t1, t10, t100] = [1, 10, 100].map(meanRun);
rows.push(["time 1x / 10x / 100x (64-char pushes)", `${t1!.toFixed(2)} ms / ${t10!.toFixed(2)} ms / ${t100!.toFixed(2)} ms`]);
rows.push(["ratio 10x/1x, 100x/10x", `${(t10! / t1!).toFixed(1)} / ${(t100! / t10!).toFixed(1)}`]);

// Long shapes: one 800 KB value each, in 16-character pushes (each was quadratic at some point).
const big = "let x = a[i] + b; // a < b\n".repeat(30_000).slice(0, 800_000);
const wrap = (body: string) => `<|svcml|tool_calls><|svcml|invoke name="w"><|svcml|parameter name="content">${body}</|svcml|parameter></|svcml|invoke></|svcml|tool_calls>`;
const shapes: [string, string][] = [
  ["CDATA value", wrap(`<![CDATA[${big}]]>`)],
  ["plain body", wrap(big)],
  ["comment in a body", wrap(`a <!-- ${big} --> b`)],
  ["CDATA value with a fenced ]]>", wrap(`<![CDATA[\n\`\`\`\n]]>\n${big}`)],
  ["JSON invoke body", `<|svcml|tool_calls><|svcml|invoke name="w">${JSON.stringify({ content: big })}</|svcml|invoke></|svcml|tool_calls>`],
  ["stray closing tags on one line", "</invoke> x ".repeat(70_000)],
  ["comment in prose", `Intro <!-- ${big} --> outro`],
  ["bare invoke body (released at the hold limit)", `<invoke name="w"><parameter name="content">${big}</parameter></invoke></tool_calls>`],
];
for (const [name, text] of shapes) rows.push([`800 KB ${name}, 16-char pushes`, `${best(chunksOf(text, 16), 300).toFixed(0)} ms`]);

// Pushes that all end at the same place of a block: between a wrapper and its invoke, every push once left
// the buffer growing (it was compacted only in plain text), so this ran at a few MB/s and fell with size.
const block = denseCalls.slice(0, denseCalls.length / 1600);
const cut = [denseCalls.slice(0, 41)];
for (let i = 41; i < denseCalls.length; i += block.length) cut.push(denseCalls.slice(i, i + block.length));
rows.push(["dense calls, every push ending between wrapper and invoke", `${(denseCalls.length / 1e6 / (best(cut) / 1000)).toFixed(0)} MB/s`]);

// A whole answer without a newline in one push: each CDATA value's fence check once searched on to the end of
// the line, so the time grew with the square of the size.
const oneLine = denseCalls.replaceAll("\n", " ");
const [line1, line10] = [oneLine, oneLine.repeat(10)].map((t) => best([t], 1000));
rows.push(["dense calls without newlines, one push: 400 KB / 4 MB", `${line1!.toFixed(0)} ms / ${line10!.toFixed(0)} ms`]);

const width = Math.max(...rows.map((r) => r[0].length));
for (const [k, v] of rows) console.log(`${k.padEnd(width)}  ${v}`);
