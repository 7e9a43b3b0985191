import { describe, expect, test } from "bun:test";
import { listedTools, NO_DESCRIPTION, toolInstructionBlock } from "../../src/prompt/tool-block";
import { exampleCalls, exampleValue } from "../../src/prompt/tool-examples";
import { parseWholeText } from "../../src/pipeline/svcml/parse";
import type { ToolDef } from "../../src/pipeline/types";

const readFile: ToolDef = {
  name: "read_file",
  description: "Read a file",
  parameters: { type: "object", properties: { path: { type: "string" }, limit: { type: "integer" } }, required: ["path"] },
};
const search: ToolDef = {
  name: "search",
  parameters: { type: "object", properties: { query: { type: "string" }, filters: { type: "object", properties: { lang: { type: "string", enum: ["ts", "js"] } } } } },
};
const bash: ToolDef = { name: "run_bash", description: "Run a shell command", parameters: { type: "object", properties: { timeout: { type: "number" }, command: { type: "string" } } } };
const bare: ToolDef = { name: "now" };

describe("tool instruction block (§3.8)", () => {
  test("absent without tools or with tool_choice none", () => {
    expect(toolInstructionBlock([], { kind: "auto" }, false)).toBe("");
    expect(toolInstructionBlock([readFile], { kind: "none" }, false)).toBe("");
  });

  test("the ten parts come in order", () => {
    const block = toolInstructionBlock([{ ...readFile, name: "Read" }], { kind: "required" }, true);
    const marks = [
      "# Tools",
      "Tool: Read",
      "## Format",
      "## Rules",
      "## Parameter shapes",
      "## Wrong",
      "Remember: the only way",
      "## Examples",
      "About read results",
      "Your answer must contain at least one tool call.",
    ];
    const positions = marks.map((m) => block.indexOf(m));
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  });

  test("tool list entries: name, description (or the fixed text), compact schema ({} when absent)", () => {
    const block = toolInstructionBlock([readFile, bare], { kind: "auto" }, false);
    expect(block).toContain(`Tool: read_file\nDescription: Read a file\nParameters: ${JSON.stringify(readFile.parameters)}`);
    expect(block).toContain(`Tool: now\nDescription: ${NO_DESCRIPTION}\nParameters: {}`);
  });

  test("the rules have ten numbered items and mention the CDATA escape", () => {
    const block = toolInstructionBlock([readFile], { kind: "auto" }, false);
    for (let i = 1; i <= 10; i++) expect(block).toContain(`\n${i}. `);
    expect(block).toContain("]]]]><![CDATA[>");
  });

  test("the format template and the example calls are recognised as calls by the detector", () => {
    const block = toolInstructionBlock([readFile, search, bash], { kind: "auto" }, false);
    const examples = block.slice(block.indexOf("## Examples"));
    const calls = parseWholeText(examples).calls;
    expect(calls.map((c) => c.name)).toEqual(["read_file", "read_file", "search", "search", "run_bash"]);
    expect(JSON.parse(calls[0]!.arguments)).toEqual({ path: "src/index.ts" });
    expect(JSON.parse(calls[3]!.arguments)).toEqual({ query: "TODO", filters: { lang: "ts" } });
    expect(JSON.parse(calls[4]!.arguments)).toEqual({ command: "cd project\nnpm install\nnpm test" });
  });

  test("examples name only declared tools; left out when no tool has a schema", () => {
    expect(toolInstructionBlock([bare], { kind: "auto" }, false)).not.toContain("## Examples");
    const block = toolInstructionBlock([search], { kind: "auto" }, false);
    const names = [...block.matchAll(/invoke name="([^"]+)"/g)].map((m) => m[1]);
    expect(new Set(names)).toEqual(new Set(["TOOL_NAME", "search"]));
  });

  test("read-cache guard only when a read / readFile tool is declared", () => {
    expect(toolInstructionBlock([search, { name: "read_url" }], { kind: "auto" }, false)).not.toContain("About read results");
    expect(toolInstructionBlock([readFile], { kind: "auto" }, false)).toContain("About read results");
    expect(toolInstructionBlock([{ name: "readFile" }], { kind: "auto" }, false)).toContain("About read results");
    expect(toolInstructionBlock([{ name: "Read" }], { kind: "auto" }, false)).toContain("About read results");
  });

  test("tool_choice lines: forced lists one tool and names it; allowed lists the set; single limits invokes", () => {
    const forced = toolInstructionBlock([readFile, search], { kind: "forced", name: "search" }, false);
    expect(forced).not.toContain("Tool: read_file");
    expect(forced).toContain("Your answer must call the tool search, and no other tool.");
    const allowed = toolInstructionBlock([readFile, search, bash], { kind: "allowed", names: ["read_file", "run_bash"], required: true }, true);
    expect(allowed).not.toContain("Tool: search");
    expect(allowed).toContain("Tool: run_bash");
    expect(allowed).toContain("Your answer must contain at least one tool call.");
    expect(allowed).toContain("Your answer may contain at most one invoke.");
    const auto = toolInstructionBlock([readFile], { kind: "auto" }, false);
    expect(auto).not.toContain("must contain at least one");
    expect(auto).not.toContain("at most one invoke");
    expect(toolInstructionBlock([readFile], { kind: "allowed", names: ["read_file"], required: false }, false)).not.toContain("must contain");
  });

  test("listedTools follows the choice", () => {
    expect(listedTools([readFile, search], { kind: "auto" }).length).toBe(2);
    expect(listedTools([readFile, search], { kind: "forced", name: "read_file" })).toEqual([readFile]);
  });
});

describe("example values (§3.8 part 8)", () => {
  test("come from the property name and type", () => {
    expect(exampleValue("file_path", { type: "string" })).toBe("src/index.ts");
    expect(exampleValue("cmd", { type: "string" })).toBe("ls -la");
    expect(exampleValue("pattern", { type: "string" })).toBe("TODO");
    expect(exampleValue("title", { type: "string" })).toBe("example");
    expect(exampleValue("n", { type: "integer" })).toBe(1);
    expect(exampleValue("x", { type: "number" })).toBe(1.5);
    expect(exampleValue("b", { type: "boolean" })).toBe(true);
    expect(exampleValue("mode", { type: "string", enum: ["fast", "slow"] })).toBe("fast");
  });

  test("the nested example uses the first tool with an object or array property", () => {
    const ex = exampleCalls([readFile, search]);
    expect(ex.nested?.name).toBe("search");
    expect(ex.script).toBeUndefined();
  });
});
