import { describe, expect, test } from "bun:test";
import { buildPrompt, EFFORT_NOTE, withEffortNote } from "../../src/prompt/build";
import { CONTEXT_NOTE } from "../../src/prompt/context-file";
import type { TurnRequest } from "../../src/pipeline/types";

function request(over: Partial<TurnRequest> = {}): TurnRequest {
  return {
    surface: "chat",
    requestedModel: "m",
    model: "m",
    turns: [
      { role: "user", text: "Q1" },
      { role: "assistant", text: "A1" },
      { role: "user", text: "Q2" },
    ],
    tools: [],
    toolChoice: { kind: "auto" },
    singleCall: false,
    thinking: true,
    exposeThinking: true,
    highEffort: false,
    stream: false,
    files: [],
    fileIds: [],
    passThrough: {},
    ...over,
  };
}

const inlineOnly = { currentInputFile: { enabled: true, min_chars: 100_000 } };

describe("buildPrompt (§3.2, §3.10, §3.11)", () => {
  test("the effort note is appended to the latest user turn after a blank line", () => {
    const p = buildPrompt(request({ highEffort: true }), inlineOnly).prompt;
    expect(p).toContain(`Q2\n\n${EFFORT_NOTE}`);
    expect(p.indexOf(EFFORT_NOTE)).toBe(p.lastIndexOf(EFFORT_NOTE));
    expect(p).not.toContain(`Q1\n\n${EFFORT_NOTE}`);
  });

  test("no note without high effort or with thinking off", () => {
    expect(buildPrompt(request(), inlineOnly).prompt).not.toContain(EFFORT_NOTE);
    expect(buildPrompt(request({ highEffort: true, thinking: false }), inlineOnly).prompt).not.toContain(EFFORT_NOTE);
  });

  test("withEffortNote does not mutate the request's turns", () => {
    const turns = request().turns;
    withEffortNote(turns, true);
    expect(turns[2]!.text).toBe("Q2");
  });

  test("the tool block goes into the first system block", () => {
    const p = buildPrompt(request({ tools: [{ name: "ls" }] }), inlineOnly).prompt;
    expect(p).toContain("Tool: ls");
    expect(buildPrompt(request({ tools: [{ name: "ls" }], toolChoice: { kind: "none" } }), inlineOnly).prompt).not.toContain("Tool: ls");
  });

  test("the effort note is applied before the split, so it stays with the live latest user turn", () => {
    const inlineLength = buildPrompt(request({ highEffort: true }), inlineOnly).prompt.length;
    const r = buildPrompt(request({ highEffort: true }), { currentInputFile: { enabled: true, min_chars: inlineLength }, forceFileMode: false });
    expect(r.contextFile).toBeDefined();
    expect(r.prompt).toContain(`${CONTEXT_NOTE}\n\nQ2\n\n${EFFORT_NOTE}`);
    expect(r.contextFile!.text).not.toContain(EFFORT_NOTE);
    expect(r.promptEstimateText).toBe(r.contextFile!.text + r.prompt);
  });

  test("promptEstimateText is the prompt when there is no file", () => {
    const r = buildPrompt(request(), inlineOnly);
    expect(r.contextFile).toBeUndefined();
    expect(r.promptEstimateText).toBe(r.prompt);
  });
});
