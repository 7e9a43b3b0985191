// Issue 29: what an agent writes reaches the user's files byte for byte. Claude Code, Gemini CLI and opencode
// (pinned in tests/clients/package.json) run a tool loop against the compiled gateway in which core, scripted
// through the simulator's queue, writes with the CLI's own file tools exactly as the gateway's tool
// instructions ask (every string in CDATA): a pretty-printed JSON file with a 20-digit integer and `1.0`, an
// edit of a quote style, an edit inserting a JSX fragment, and an edit whose old text is `[1, 2, 3]`. The file
// on disk must then be, byte for byte, what core wrote. Edits read the file first (Claude Code and opencode
// refuse to edit a file the conversation has not read); core's last answer comes from the demo model, which
// quotes the tool's result and ends the loop.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { answerOf, runCli, type Cli } from "./helpers/cli";
import { announceSkip, clientsInstalled } from "./helpers/paths";
import { startStack, toolResults, type Stack } from "./helpers/stack";

announceSkip("the agent CLI file-edit suite");

let stack: Stack;
beforeAll(async () => {
  if (clientsInstalled) stack = await startStack();
}, 180_000);
afterAll(async () => {
  await stack?.stop();
});

/** Each CLI's own file tools and their parameter names (as declared in the tool lists core receives). */
interface FileTools {
  read: [name: string, path: string];
  write: [name: string, path: string, content: string];
  edit: [name: string, path: string, oldText: string, newText: string];
  /** Further required edit parameters. */
  editExtra?: Record<string, string>;
}
const TOOLS: Record<Exclude<Cli, "codex">, FileTools> = {
  claude: { read: ["Read", "file_path"], write: ["Write", "file_path", "content"], edit: ["Edit", "file_path", "old_string", "new_string"] },
  gemini: {
    read: ["read_file", "file_path"],
    write: ["write_file", "file_path", "content"],
    edit: ["replace", "file_path", "old_string", "new_string"],
    editExtra: { instruction: "Make the change the user asked for." },
  },
  opencode: { read: ["read", "filePath"], write: ["write", "filePath", "content"], edit: ["edit", "filePath", "oldString", "newString"] },
};
/** Text only in a CLI's main-agent prompts (not in its side calls: titles, routers, checks). */
const MAIN_PROMPT: Record<keyof typeof TOOLS, string> = { claude: "Tool: Bash", gemini: "You are Gemini CLI", opencode: "You are opencode" };
/** Gemini CLI's default model first asks its model router five times (agent-clis.test.ts); not this suite's subject. */
const MODEL: Record<keyof typeof TOOLS, string | undefined> = { claude: undefined, gemini: "core-v4-pro", opencode: undefined };

/** One svcml call as the gateway's tool instructions ask for it: every string value in its own CDATA section. */
function call(name: string, params: Record<string, string>): string {
  const cdata = (s: string) => `<![CDATA[${s.replaceAll("]]>", "]]]]><![CDATA[>")}]]>`;
  const lines = Object.entries(params).map(([k, v]) => `    <|svcml|parameter name="${k}">${cdata(v)}</|svcml|parameter>`);
  return ["<|svcml|tool_calls>", `  <|svcml|invoke name="${name}">`, ...lines, "  </|svcml|invoke>", "</|svcml|tool_calls>"].join("\n");
}

interface FileCase {
  name: string;
  file: string;
  /** The file before the run (absent: the run creates it). */
  before?: string;
  /** What core writes: the whole file, or one replacement. */
  write?: string;
  edit?: [oldText: string, newText: string];
  /** The file after the run, byte for byte. */
  after: string;
}

const PRETTY_JSON = '{\n  "name": "svc-write",\n  "version": "1.0.0",\n  "big": 12345678901234567890,\n  "ratio": 1.0,\n  "10": "ten",\n  "nested": {\n    "list": [1, 2, 3]\n  }\n}\n';
const CASES: FileCase[] = [
  // Not package.json: Gemini CLI asks for confirmation before it writes a build configuration file.
  { name: "write a pretty-printed JSON file (20-digit integer, 1.0, key order, trailing newline)", file: "data.json", write: PRETTY_JSON, after: PRETTY_JSON },
  {
    name: "edit 'hello' to \"hello\"",
    file: "quote.ts",
    before: "export const s = 'hello';\nexport const t = 'world';\n",
    edit: ["'hello'", '"hello"'],
    after: "export const s = \"hello\";\nexport const t = 'world';\n",
  },
  {
    name: "edit in a JSX fragment",
    file: "App.jsx",
    before: "export function App() {\n  return <p>old</p>;\n}\n",
    edit: ["<p>old</p>", '<div className="x"><span>hi</span></div>'],
    after: 'export function App() {\n  return <div className="x"><span>hi</span></div>;\n}\n',
  },
  {
    name: "edit whose old text is [1, 2, 3]",
    file: "list.py",
    before: "xs = [1, 2, 3]\nprint(xs)\n",
    edit: ["[1, 2, 3]", "[1, 2, 3, 4]"],
    after: "xs = [1, 2, 3, 4]\nprint(xs)\n",
  },
];

/** Core's scripted answers for one case: write the file, or read it and then edit it. */
function script(cli: keyof typeof TOOLS, c: FileCase, path: string): string[] {
  const t = TOOLS[cli];
  if (c.write !== undefined) return [call(t.write[0], { [t.write[1]]: path, [t.write[2]]: c.write })];
  const [oldText, newText] = c.edit!;
  return [call(t.read[0], { [t.read[1]]: path }), call(t.edit[0], { [t.edit[1]]: path, [t.edit[2]]: oldText, [t.edit[3]]: newText, ...t.editExtra })];
}

const TIMEOUT = 600_000;

for (const cli of Object.keys(TOOLS) as (keyof typeof TOOLS)[]) {
  describe(`${cli}: core's writes reach the file byte for byte`, () => {
    CASES.forEach((c, i) => {
      const marker = `svc-file-${cli}-${i}`;
      const body = async () => {
        let path = "";
        const prompt = `${c.write !== undefined ? "Create" : "Edit"} the file ${c.file} as planned. ${marker}`;
        const run = await runCli(cli, stack.gw.url, prompt, {
          model: MODEL[cli],
          writes: true,
          timeoutMs: TIMEOUT - 20_000,
          prepare(work) {
            path = join(work, c.file);
            if (c.before !== undefined) writeFileSync(path, c.before);
            // One entry per step, in order; side requests (titles, routers) lack the main prompt and get the demo model.
            for (const answer of script(cli, c, path))
              stack.sim.enqueue({ scenario: "no-thinking", params: { answer }, match: { prompt_includes: [marker, MAIN_PROMPT[cli]] } });
          },
        });
        const context = { exit: run.code, answer: answerOf(cli, run.stdout).slice(0, 300), stderr: run.stderr.slice(-1500) };
        expect({ ...context, exit: run.code }).toEqual({ ...context, exit: 0 });
        expect(run.phoneHome).toEqual([]);
        // Every scripted step was played: the CLI sent back the result of core's last call.
        const mains = stack.prompts().filter((p) => p.includes(marker) && p.includes(MAIN_PROMPT[cli]));
        expect(mains.length).toBeGreaterThanOrEqual(script(cli, c, path).length + 1);
        expect(toolResults(mains[mains.length - 1]!).length).toBeGreaterThanOrEqual(script(cli, c, path).length);
        let onDisk = "";
        try {
          onDisk = readFileSync(path, "utf8");
        } catch {}
        expect(onDisk).toBe(c.after);
        expect(Buffer.from(readFileSync(path)).equals(Buffer.from(c.after))).toBe(true);
      };
      if (!clientsInstalled) test.skip(c.name, () => {});
      else test.concurrent(c.name, body, TIMEOUT);
    });
  });
}
