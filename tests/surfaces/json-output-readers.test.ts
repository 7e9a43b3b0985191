// What each surface's request asks for as structured output (issue 16 item 5).
import { describe, expect, test } from "bun:test";
import { chatJsonOutput } from "../../src/surfaces/chat/normalize";
import { responsesJsonOutput } from "../../src/surfaces/responses/normalize";
import { messagesJsonOutput } from "../../src/surfaces/messages/normalize";
import { generateJsonOutput, openApiSchemaToJsonSchema } from "../../src/surfaces/generate/normalize";

const schema = { type: "object", properties: { city: { type: "string" } }, required: ["city"] };

describe("chat response_format", () => {
  test("json_object, json_schema with name and schema, json_schema without a schema", () => {
    expect(chatJsonOutput({ response_format: { type: "json_object" } })).toEqual({ kind: "json_object" });
    expect(chatJsonOutput({ response_format: { type: "json_schema", json_schema: { name: "place", schema, strict: true } } })).toEqual({ kind: "json_schema", schema, name: "place" });
    expect(chatJsonOutput({ response_format: { type: "json_schema", json_schema: { name: "x" } } })).toEqual({ kind: "json" });
  });

  test("text, unknown shapes and no response_format ask for nothing", () => {
    // A string response_format is refused by the schema (400 at response_format) before the reader sees it; the
    // reader still ignores one, hence the cast.
    for (const rf of [undefined, null, "json", { type: "text" }, { type: "grammar" }]) expect(chatJsonOutput({ response_format: rf as Parameters<typeof chatJsonOutput>[0]["response_format"] })).toBeUndefined();
  });
});

describe("responses text.format", () => {
  test("json_object, json_schema (flat name and schema)", () => {
    expect(responsesJsonOutput({ text: { format: { type: "json_object" } } })).toEqual({ kind: "json_object" });
    expect(responsesJsonOutput({ text: { format: { type: "json_schema", name: "place", schema, strict: true } } })).toEqual({ kind: "json_schema", schema, name: "place" });
    expect(responsesJsonOutput({ text: { format: { type: "json_schema" } } })).toEqual({ kind: "json" });
  });

  test("text format, verbosity only, nothing", () => {
    expect(responsesJsonOutput({ text: { format: { type: "text" } } })).toBeUndefined();
    expect(responsesJsonOutput({ text: { verbosity: "low" } })).toBeUndefined();
    expect(responsesJsonOutput({})).toBeUndefined();
  });
});

describe("messages output_config.format / output_format", () => {
  test("both spellings; output_config wins", () => {
    expect(messagesJsonOutput({ output_config: { format: { type: "json_schema", schema } } })).toEqual({ kind: "json_schema", schema });
    expect(messagesJsonOutput({ output_format: { type: "json_schema", schema } })).toEqual({ kind: "json_schema", schema });
    expect(messagesJsonOutput({ output_config: { format: { type: "json_schema", schema } }, output_format: { type: "json_schema", schema: {} } })).toEqual({ kind: "json_schema", schema });
  });

  test("effort only, other types, nothing", () => {
    expect(messagesJsonOutput({ output_config: { effort: "high" } })).toBeUndefined();
    expect(messagesJsonOutput({ output_format: { type: "text" } })).toBeUndefined();
    expect(messagesJsonOutput({})).toBeUndefined();
  });
});

describe("generate-content generationConfig", () => {
  test("application/json with responseJsonSchema, responseSchema (converted), or neither", () => {
    expect(generateJsonOutput({ generationConfig: { responseMimeType: "application/json", responseJsonSchema: schema } })).toEqual({ kind: "json_schema", schema });
    expect(generateJsonOutput({ generation_config: { response_mime_type: "application/json", response_schema: { type: "OBJECT", properties: { n: { type: "INTEGER", nullable: true } } } } })).toEqual({
      kind: "json_schema",
      schema: { type: "object", properties: { n: { type: ["integer", "null"] } } },
    });
    expect(generateJsonOutput({ generationConfig: { responseMimeType: "application/json; charset=utf-8" } })).toEqual({ kind: "json" });
  });

  test("other MIME types, a schema without the JSON MIME type, nothing", () => {
    expect(generateJsonOutput({ generationConfig: { responseMimeType: "text/plain" } })).toBeUndefined();
    expect(generateJsonOutput({ generationConfig: { responseMimeType: "text/x.enum", responseSchema: { type: "STRING", enum: ["a"] } } })).toBeUndefined();
    expect(generateJsonOutput({ generationConfig: { responseSchema: schema } })).toBeUndefined();
    expect(generateJsonOutput({})).toBeUndefined();
  });

  test("openApiSchemaToJsonSchema: types lower-cased through properties, items and anyOf; other keys kept", () => {
    expect(
      openApiSchemaToJsonSchema({
        type: "ARRAY",
        items: { type: "OBJECT", properties: { a: { anyOf: [{ type: "STRING" }, { type: "NUMBER" }] } }, propertyOrdering: ["a"], required: ["a"] },
      }),
    ).toEqual({ type: "array", items: { type: "object", properties: { a: { anyOf: [{ type: "string" }, { type: "number" }] } }, propertyOrdering: ["a"], required: ["a"] } });
  });
});
