// svcml detector benchmark (issue 6): MB/s on prose, on svcml-heavy text and on adversarial near-miss tags,
// fed in 64-character chunks as core streams them; and the time for 1×, 10× and 100× input (linearity).
import { SvcmlDetector } from "../src/pipeline/svcml/detector";

const prose = "The quick brown fox jumps over the lazy dog; a < b and c > d, `code` and **bold** text.\n".repeat(2000);
const block = `Let me check.\n<|svcml|tool_calls>\n  <|svcml|invoke name="read_file">\n    <|svcml|parameter name="path"><![CDATA[src/main.ts]]></|svcml|parameter>\n    <|svcml|parameter name="limit">200</|svcml|parameter>\n  </|svcml|invoke>\n</|svcml|tool_calls>\n`;
const heavy = block.repeat(500);
const adversarial = "<tool_call> <tools> <tool_name> <toolx <invok <param <svcm <| |> << </ <b> <tool_calls_x> <invoke_x ".repeat(1500);

function run(text: string, chunk = 64): number {
  const d = new SvcmlDetector();
  const t0 = performance.now();
  for (let i = 0; i < text.length; i += chunk) d.push(text.slice(i, i + chunk));
  d.flush();
  return performance.now() - t0;
}

function mbps(text: string, chunk = 64): number {
  run(text, chunk);
  let best = Infinity;
  for (let i = 0; i < 5; i++) best = Math.min(best, run(text, chunk));
  return text.length / 1e6 / (best / 1000);
}

const rows: [string, string][] = [
  ["prose (64-char chunks)", `${mbps(prose).toFixed(1)} MB/s`],
  ["svcml-heavy (64-char chunks)", `${mbps(heavy).toFixed(1)} MB/s`],
  ["adversarial near-miss tags", `${mbps(adversarial).toFixed(1)} MB/s`],
  ["prose (one chunk)", `${mbps(prose, prose.length).toFixed(1)} MB/s`],
  ["svcml-heavy (one chunk)", `${mbps(heavy, heavy.length).toFixed(1)} MB/s`],
];
// Whole blocks, so that every size holds the same mix of prose and complete tool calls.
const unit = block.repeat(80);
const t1 = Math.min(...[0, 1, 2].map(() => run(unit)));
const t10 = Math.min(...[0, 1, 2].map(() => run(unit.repeat(10))));
const t100 = Math.min(...[0, 1].map(() => run(unit.repeat(100))));
rows.push(["time 1x / 10x / 100x", `${t1.toFixed(2)} ms / ${t10.toFixed(2)} ms / ${t100.toFixed(2)} ms`]);
rows.push(["ratio 10x/1x, 100x/10x", `${(t10 / t1).toFixed(1)} / ${(t100 / t10).toFixed(1)}`]);
// One very large CDATA value in small chunks: the held parameter body is the known super-linear case.
const big = `<tool_calls><invoke name="w"><parameter name="content"><![CDATA[${"x".repeat(800_000)}]]></parameter></invoke></tool_calls>`;
rows.push(["800 KB CDATA value, 16-char chunks", `${run(big, 16).toFixed(0)} ms`]);
const width = Math.max(...rows.map((r) => r[0].length));
for (const [k, v] of rows) console.log(`${k.padEnd(width)}  ${v}`);
