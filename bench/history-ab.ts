// The chat history and its tap per request, in process, A/B (issue 35): a copy of src/ (e.g. an older commit's: BASE)
// against this tree's: start, update, the tap's events of a short non-stream answer, finish; the event loop's CPU
// from /proc (its thread's schedstat), ABBA blocks. The file-backed store writes as it does in a gateway (debounced).
//   BASE=<dir holding src/> N=3000 BLOCKS=8 bun bench/history-ab.ts
import { readFileSync, mkdtempSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
const N = Number(process.env.N ?? 4000), BLOCKS = Number(process.env.BLOCKS ?? 10);
const load = async (src: string) => ({ H: (await import(join(src, "store/chat-history.ts"))).ChatHistoryStore, tap: (await import(join(src, "surfaces/history-tap.ts"))).historyTapStage });
const A = await load(join(process.env.BASE ?? "", "src")), B = await load(join(import.meta.dir, "../src"));
const mk = async (m: any) => ({ m, store: await m.H.open({ path: join(mkdtempSync(join(tmpdir(), "hab-")), "chat-history.json"), limit: () => 20 }) });
const arms = { A: await mk(A), B: await mk(B) };
const mainUs = () => Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, "utf8").split(" ")[0]) / 1000;
const events = [{ type: "text", text: "Hello! How can I help you today?" }, { type: "finish", outcome: "stop", usage: { promptTokens: 12, completionTokens: 9, reasoningTokens: 0 } }];
const c = { enqueue() {} };
async function slot(arm: any) {
  const t0 = mainUs();
  for (let i = 0; i < N; i++) {
    const ac = new AbortController();
    const id = arm.store.start({ surface: "chat", model: "core-v4-flash", resolved_model: "core-v4-flash", stream: false, caller_id: "caller:0123456789abcdef", request_messages: [{ role: "user", content: "hello" }], user_input: "hello" });
    arm.store.update(id, { account_id: "a@bench.test", final_prompt: "<|User|>hello<|Assistant|>" });
    const t = arm.m.tap(arm.store, id, ac.signal);
    for (const ev of events) t.transform(ev, c);
    if (i % 50 === 0) await new Promise((r) => setImmediate(r));
  }
  await arm.store.flush();
  return (mainUs() - t0) / N;
}
for (let i = 0; i < 3; i++) { await slot(arms.A); await slot(arms.B); }
const r: Record<string, number[]> = { A: [], B: [] };
for (let b = 0; b < BLOCKS; b++) for (const k of (b % 2 ? ["B", "A", "A", "B"] : ["A", "B", "B", "A"]) as ("A" | "B")[]) r[k]!.push(await slot(arms[k]));
const med = (xs: number[]) => xs.slice().sort((a, b) => a - b)[xs.length >> 1]!;
const ratios = r.A!.map((a, i) => r.B![i]! / a);
console.log(`µs/request main thread: A ${med(r.A!).toFixed(2)} [${Math.min(...r.A!).toFixed(2)}–${Math.max(...r.A!).toFixed(2)}]  B ${med(r.B!).toFixed(2)} [${Math.min(...r.B!).toFixed(2)}–${Math.max(...r.B!).toFixed(2)}]  B/A median ${med(ratios).toFixed(3)} [${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}]`);
process.exit(0);
