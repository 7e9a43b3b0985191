// Scenario selection (core-upstream §12.8): the control queue first (optionally matched on account,
// session, flags and strings in the prompt, `times` uses), then a `[[sim:<id> key=value …]]` directive in the prompt or in a
// referenced file's text, then the default by the request flags.
import { BUILTIN, defaultScenario, type BuildContext } from "./scenarios";
import type { EnqueueEntry, Params, QueueMatch, ScenarioScript } from "./types";

export interface Selection {
  id: string;
  params: Params;
  script?: ScenarioScript;
  /** Identifies the selection across calls, for scenarios that fail `times` times before succeeding. */
  attemptKey: string;
}

export interface RequestFacts {
  account: string;
  session: string;
  model_type: string;
  thinking_enabled: boolean;
  search_enabled: boolean;
  /** The prompt and the referenced files' texts (a long history may come as a file). */
  texts?: string[];
}

interface Queued {
  serial: number;
  entry: EnqueueEntry;
  left: number;
}

function matches(m: QueueMatch | undefined, f: RequestFacts): boolean {
  if (!m) return true;
  if (m.account !== undefined && m.account.toLowerCase() !== f.account.toLowerCase()) return false;
  if (m.session !== undefined && m.session !== f.session) return false;
  if (m.model_type !== undefined && m.model_type !== f.model_type) return false;
  if (m.thinking_enabled !== undefined && m.thinking_enabled !== f.thinking_enabled) return false;
  if (m.search_enabled !== undefined && m.search_enabled !== f.search_enabled) return false;
  if (m.prompt_includes && !m.prompt_includes.every((needle) => (f.texts ?? []).some((t) => t.includes(needle)))) return false;
  return true;
}

export class ScenarioQueue {
  private items: Queued[] = [];
  private serial = 0;

  push(entry: EnqueueEntry): void {
    if (!entry.script && !entry.scenario) throw new Error("enqueue needs `scenario` or `script`");
    if (entry.scenario && !entry.script && !BUILTIN[entry.scenario]) throw new Error(`unknown scenario: ${entry.scenario}`);
    this.items.push({ serial: ++this.serial, entry, left: Math.max(1, entry.times ?? 1) });
  }

  take(f: RequestFacts): Selection | null {
    const i = this.items.findIndex((q) => matches(q.entry.match, f));
    if (i < 0) return null;
    const q = this.items[i]!;
    if (--q.left <= 0) this.items.splice(i, 1);
    const id = q.entry.script?.name ?? q.entry.scenario!;
    return { id, params: q.entry.params ?? {}, script: q.entry.script, attemptKey: `queue:${q.serial}` };
  }

  get length(): number {
    return this.items.length;
  }

  clear(): void {
    this.items = [];
  }
}

const DIRECTIVE = /\[\[sim:([A-Za-z0-9_-]+)((?:\s+[A-Za-z_][A-Za-z0-9_]*=[^\s\]]*)*)\s*\]\]/;

/** The first `[[sim:<id> key=value …]]`; values are numbers or strings without spaces. */
export function parseDirective(text: string): { id: string; params: Params } | null {
  const m = DIRECTIVE.exec(text);
  if (!m) return null;
  const params: Params = {};
  for (const kv of (m[2] ?? "").trim().split(/\s+/).filter(Boolean)) {
    const eq = kv.indexOf("=");
    const k = kv.slice(0, eq);
    const v = kv.slice(eq + 1);
    params[k] = /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : v === "true" ? true : v === "false" ? false : v;
  }
  return { id: m[1]!.toLowerCase(), params };
}

const UNTRUSTED_IN_PROMPTS = new Set(["replay"]);

export function directiveSelection(texts: string[]): Selection | null {
  for (const t of texts) {
    const d = parseDirective(t);
    // `replay` reads a file named in its params: from a prompt that would let any client of a demo
    // gateway read the host's files, so it is only accepted through the control queue.
    if (d && UNTRUSTED_IN_PROMPTS.has(d.id)) continue;
    if (d) return { ...d, attemptKey: `directive:${d.id}:${JSON.stringify(d.params)}` };
  }
  return null;
}

/** The script a selection stands for; an unknown id falls back to the default. */
export function buildScript(sel: Selection | null, ctx: BuildContext): ScenarioScript {
  if (sel?.script) return sel.script;
  const builder = sel ? BUILTIN[sel.id] : undefined;
  return builder ? builder(sel!.params, ctx) : defaultScenario(ctx);
}
