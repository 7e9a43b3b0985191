// Elysia's `t.Integer` compiles a TypeBox validator for its decode step the moment a schema is *declared*: the
// ≈ 74 declarations at the top of the route and answer schema modules cost a cold start ≈ 30 ms (issue 35), for
// a decode that runs only when a query or path value is coerced. This replaces it, once, with the same schema —
// the same Transform over the same Union, the same Decode rule and error — whose validator is compiled on its
// first decode. Imported first by src/app.ts, so that it runs before the schema modules are evaluated (a
// module evaluated earlier keeps Elysia's own, which behaves the same, only compiled at once).
import { t, ValidationError } from "elysia";
import { Type, type IntegerOptions, type TSchema } from "@sinclair/typebox";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import { Value } from "@sinclair/typebox/value";

interface Checker {
  Check(v: unknown): boolean;
  Error(v: unknown): ValidationError;
}

/** Elysia's type-system `compile` (utils.ts) as far as Integer uses it: Check and Error, the fallback included. */
function compile(schema: TSchema): Checker {
  // The fourth argument is what Elysia passes there (the errors), kept so that the messages are Elysia's.
  const error = (v: unknown, errors: unknown) => new ValidationError("property", schema, v, errors as boolean);
  try {
    const compiler = TypeCompiler.Compile(schema);
    return { Check: (v) => compiler.Check(v), Error: (v) => error(v, compiler.Errors(v)) };
  } catch {
    return { Check: (v) => Value.Check(schema, v), Error: (v) => error(v, Value.Errors(schema, v)) };
  }
}

/** Elysia's ElysiaType.Integer (type-system/index.ts), with the validator compiled on first use. */
export function lazyInteger(property?: IntegerOptions) {
  const schema = Type.Integer(property);
  let compiler: Checker | undefined;
  return t
    .Transform(t.Union([t.String({ format: "integer", default: 0 }), Type.Integer(property)], property))
    .Decode((value) => {
      const number = +value;
      compiler ??= compile(schema);
      if (!compiler.Check(number)) throw compiler.Error(number);
      return number;
    })
    .Encode((value) => value);
}

(t as { Integer: unknown }).Integer = lazyInteger;
