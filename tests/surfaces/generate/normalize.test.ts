import { describe, expect, test } from "bun:test";
import { functionResponseText, generateEffortHint, normalizeGenerate } from "../../../src/surfaces/generate/normalize";

describe("generate-content normaliser (§3.6)", () => {
  test("systemInstruction parts are concatenated; text parts join without a separator", () => {
    const r = normalizeGenerate({
      system_instruction: { parts: [{ text: "Be " }, { text: "brief." }] },
      contents: [{ role: "user", parts: [{ text: "Hel" }, { text: "lo" }] }],
    });
    expect(r.turns).toEqual([
      { role: "system", text: "Be brief." },
      { role: "user", text: "Hello" },
    ]);
  });

  test("model turns: thought parts are ignored (D7.5), functionCall parts are calls", () => {
    const r = normalizeGenerate({
      contents: [
        { role: "user", parts: [{ text: "weather?" }] },
        { role: "model", parts: [{ text: "thinking…", thought: true }, { text: "Checking." }, { functionCall: { name: "weather", args: { city: "Oslo" } } }] },
      ],
    });
    expect(r.turns[1]).toEqual({ role: "assistant", text: "Checking.", toolCalls: [{ name: "weather", arguments: { city: "Oslo" } }] });
  });

  test("functionResponse parts become tool turns placed before the entry's own turn", () => {
    const r = normalizeGenerate({
      contents: [
        { role: "user", parts: [{ text: "q" }] },
        { role: "model", parts: [{ functionCall: { name: "a", args: {} } }, { functionCall: { name: "b", args: {} } }] },
        {
          role: "user",
          parts: [
            { text: "thanks, now explain" },
            { functionResponse: { name: "a", response: { content: "A-out" } } },
            { functionResponse: { name: "b", response: { temp: 3 } } },
          ],
        },
      ],
    });
    expect(r.turns.slice(2)).toEqual([
      { role: "tool", text: "A-out", toolResultOf: { name: "a" } },
      { role: "tool", text: '{"temp":3}', toolResultOf: { name: "b" } },
      { role: "user", text: "thanks, now explain" },
    ]);
  });

  test("an entry holding only function responses adds no turn of its own; function role is tool", () => {
    const r = normalizeGenerate({
      contents: [
        { role: "user", parts: [{ text: "q" }] },
        { role: "model", parts: [{ functionCall: { name: "a", args: {} } }] },
        { role: "function", parts: [{ functionResponse: { name: "a", response: { result: "ok" } } }] },
      ],
    });
    expect(r.turns.map((t) => t.role)).toEqual(["user", "assistant", "tool"]);
    expect(r.turns[2]!.text).toBe("ok");
  });

  test("functionResponse text: content, output or result string, else compact JSON", () => {
    expect(functionResponseText({ output: "o" })).toBe("o");
    expect(functionResponseText({ result: { x: 1 } })).toBe('{"result":{"x":1}}');
    expect(functionResponseText("plain")).toBe("plain");
  });

  test("inlineData is uploaded, fileData and code parts dropped; an image-only last user entry keeps its turn", () => {
    const r = normalizeGenerate({
      contents: [{ role: "user", parts: [{ inlineData: { mimeType: "image/png", data: "AAEC" } }, { fileData: { fileUri: "gs://x" } }, { executableCode: { code: "1" } }] }],
    });
    expect(r.files.length).toBe(1);
    expect(r.files[0]!.mime).toBe("image/png");
    expect(r.turns).toEqual([{ role: "user", text: "" }]);
  });

  test("tools from functionDeclarations; generationConfig passes through under core's names", () => {
    const r = normalizeGenerate({
      contents: [{ role: "user", parts: [{ text: "q" }] }],
      tools: [{ functionDeclarations: [{ name: "f", description: "d", parametersJsonSchema: { type: "object" } }] }, { googleSearch: {} }],
      toolConfig: { functionCallingConfig: { mode: "ANY" } },
      generationConfig: { temperature: 0.5, topP: 0.8, maxOutputTokens: 64, stopSequences: ["x"], thinkingConfig: { thinkingBudget: 1 } },
    });
    expect(r.tools).toEqual([{ name: "f", description: "d", parameters: { type: "object" } }]);
    expect(r.toolChoice).toEqual({ kind: "required" });
    expect(r.passThrough).toEqual({ temperature: 0.5, top_p: 0.8, max_tokens: 64, stop: ["x"] });
  });

  test("effort hint: thinkingBudget ≥ 16000 or thinkingLevel high", () => {
    expect(generateEffortHint({ generationConfig: { thinkingConfig: { thinkingBudget: 16000 } } })).toBe(true);
    expect(generateEffortHint({ generationConfig: { thinkingConfig: { thinkingLevel: "HIGH" } } })).toBe(true);
    expect(generateEffortHint({ generationConfig: { thinkingConfig: { thinkingBudget: 8000, thinkingLevel: "low" } } })).toBe(false);
  });

  test("a role system entry anywhere in contents is a system turn in place, after systemInstruction (issue 16)", () => {
    const r = normalizeGenerate({
      systemInstruction: { role: "system", parts: [{ text: "top" }] },
      contents: [
        { role: "user", parts: [{ text: "q1" }] },
        { role: "system", parts: [{ text: "mid " }, { text: "note" }] },
        { role: "model", parts: [{ text: "a1" }] },
        { role: "user", parts: [{ text: "q2" }] },
      ],
    });
    expect(r.turns).toEqual([
      { role: "system", text: "top" },
      { role: "user", text: "q1" },
      { role: "system", text: "mid note" },
      { role: "assistant", text: "a1" },
      { role: "user", text: "q2" },
    ]);
  });
});
