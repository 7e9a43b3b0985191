// Elysia's schema failures → the 400 `invalid_request` of decisions.md 4.3/4.4: `param` is the dotted path of
// the field at fault (`messages.2.role`), the message names the field and what was expected.
import type { ValueError } from "@sinclair/typebox/errors";
import { ValueErrorType } from "@sinclair/typebox/errors";
import type { GatewayError } from "../util/gateway-error";
import { invalidRequest } from "../util/invalid-request";

interface ValidationLike {
  type: string;
  /** body, query, params, headers… */
  valueError?: ValueError;
}

const depth = (path: string) => (path === "" ? 0 : path.split("/").length);

/** Failures of a value of the right type that breaks a bound: they say more than "expected X or Y". */
const CONSTRAINTS = new Set<ValueErrorType>([
  ValueErrorType.ArrayMinItems,
  ValueErrorType.ArrayMaxItems,
  ValueErrorType.StringMinLength,
  ValueErrorType.StringMaxLength,
  ValueErrorType.StringPattern,
  ValueErrorType.NumberMinimum,
  ValueErrorType.NumberMaximum,
  ValueErrorType.IntegerMinimum,
  ValueErrorType.IntegerMaximum,
]);

/**
 * A union failure is reported at the union's own path. The variant that got furthest names the field better:
 * `content: [5]` against string | block[] is at fault at `content.0`, not at `content`; and `0` against
 * integer(1..720) | null broke the integer's bound, not "integer or null".
 */
function mostSpecific(err: ValueError): ValueError {
  if (err.type !== ValueErrorType.Union) return err;
  let best = err;
  for (const variant of err.errors)
    for (const sub of variant) {
      const candidate = mostSpecific(sub);
      const deeper = depth(candidate.path) > depth(best.path);
      const sameDepthButBound = depth(candidate.path) === depth(best.path) && CONSTRAINTS.has(candidate.type) && !CONSTRAINTS.has(best.type);
      if (deeper || sameDepthButBound) best = candidate;
    }
  return best;
}

function literalList(schema: { anyOf?: { const?: unknown }[] }): string | null {
  const consts = schema.anyOf?.map((s) => s.const);
  if (!consts?.length || consts.some((c) => c === undefined)) return null;
  return consts.map((c) => JSON.stringify(c)).join(", ");
}

const TYPE_NAMES: Record<string, string> = {
  string: "a string",
  number: "a number",
  integer: "an integer",
  boolean: "a boolean",
  object: "an object",
  array: "an array",
  null: "null",
};

function typeName(schema: Record<string, unknown>): string | null {
  const t = schema.type;
  if (typeof t === "string" && TYPE_NAMES[t]) return TYPE_NAMES[t];
  const variants = (schema.anyOf as Record<string, unknown>[] | undefined)?.map(typeName);
  if (variants?.length && variants.every((v): v is string => v !== null)) return [...new Set(variants)].join(" or ");
  return null;
}

/** The keywords of a failed schema that the messages quote. */
type SchemaWords = {
  problem?: unknown;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  const?: unknown;
  anyOf?: { const?: unknown }[];
};

/** What the schema expected, in words: "must be a string", "must be one of "user", "assistant"", … */
function expectation(err: ValueError): string {
  const schema = err.schema as SchemaWords;
  // Schemas shared with the config (config/schema.ts) carry their own wording.
  if (typeof schema.problem === "string" && err.type !== ValueErrorType.ObjectRequiredProperty) return schema.problem;
  switch (err.type) {
    case ValueErrorType.ObjectRequiredProperty:
      return "is required";
    case ValueErrorType.ArrayMinItems:
      return `must contain at least ${schema.minItems} item${schema.minItems === 1 ? "" : "s"}`;
    case ValueErrorType.ArrayMaxItems:
      return `must contain at most ${schema.maxItems} items`;
    case ValueErrorType.StringMinLength:
      return schema.minLength === 1 ? "must not be empty" : `must be at least ${schema.minLength} characters`;
    case ValueErrorType.StringMaxLength:
      return `must be at most ${schema.maxLength} characters`;
    case ValueErrorType.StringPattern:
      return `must match ${schema.pattern}`;
    case ValueErrorType.NumberMinimum:
    case ValueErrorType.IntegerMinimum:
      return `must be at least ${schema.minimum}`;
    case ValueErrorType.NumberMaximum:
    case ValueErrorType.IntegerMaximum:
      return `must be at most ${schema.maximum}`;
  }
  if (schema.const !== undefined) return `must be ${JSON.stringify(schema.const)}`;
  const literals = literalList(schema);
  if (literals) return `must be one of ${literals}`;
  const name = typeName(schema);
  return name ? `must be ${name}` : err.message.toLowerCase();
}

/** The dotted parameter of a JSON-pointer path: `/messages/0/role` → `messages.0.role`. */
export function dottedParam(path: string): string {
  return path
    .split("/")
    .slice(1)
    .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"))
    .join(".");
}

export function validationToGatewayError(error: ValidationLike): GatewayError {
  const first = error.valueError;
  if (!first) return invalidRequest(`The request ${error.type} is invalid.`);
  const err = mostSpecific(first);
  // A query number Elysia converted from text and then found out of bounds comes without its path: the
  // schema's title names the parameter (surfaces/admin/query-schema.ts).
  const title = (err.schema as { title?: unknown }).title;
  const param = dottedParam(err.path) || (error.type === "property" && typeof title === "string" ? title : "");
  // Elysia names the part of the request (body, query, params, headers), or "property" for a single field.
  const part = ["query", "params", "headers", "cookie"].includes(error.type) ? error.type : error.type === "property" && param ? "query" : "body";
  // A whole-body failure has no field: name the part of the request instead.
  const subject = param || part;
  const where = part === "body" || !param ? "" : ` (${part})`;
  return invalidRequest(`${subject}${where} ${expectation(err)}.`, param || null);
}
