// src/http/elysia-integer.ts replaces Elysia's t.Integer with one whose decode validator is compiled on first
// use (issue 35). Differential: Elysia's own t.Integer (kept by the module when it replaces it) and the replacement
// give the same schema and, through real routes, the same answers — values, coercions, refusals and their
// messages — for query and path values.
import { describe, expect, test } from "bun:test";
import { Elysia, t } from "elysia";

import { lazyInteger } from "../../src/http/elysia-integer";
// Elysia's own t.Integer: `t.Integer` is ElysiaType.Integer until the module above replaces it on `t` alone.
import { ElysiaType } from "elysia/type-system";

const elysiaInteger = ElysiaType.Integer;

const OPTIONS = [undefined, { minimum: 1 }, { minimum: 0, maximum: 50, title: "limit", problem: "must be an integer between 0 and 50", description: "d" }];
const INPUTS = ["0", "1", "7", "50", "51", "-3", "2.5", "abc", "", "1e3", "0x10", " 12", "12 ", "9007199254740993", "NaN", "Infinity"];

function app(integer: typeof lazyInteger, options: (typeof OPTIONS)[number]) {
  return new Elysia()
    .get("/q", ({ query }) => ({ n: query.n }), { query: t.Object({ n: t.Optional(integer(options)) }) })
    .get("/p/:n", ({ params }) => ({ n: params.n }), { params: t.Object({ n: integer(options) }) })
    .onError(({ code, error }) => ({ code, message: String((error as Error).message) }));
}

async function answer(a: ReturnType<typeof app>, path: string) {
  const r = await a.handle(new Request(`http://local${path}`));
  return { status: r.status, body: await r.text() };
}

describe("lazy t.Integer", () => {
  test("the replacement is installed and is not Elysia's", () => {
    expect(t.Integer).toBe(lazyInteger as unknown as typeof t.Integer);
    expect(elysiaInteger).not.toBe(t.Integer);
  });

  test("the same schema, field for field", () => {
    for (const o of OPTIONS) {
      const mine = lazyInteger(o);
      const theirs = elysiaInteger(o);
      expect(JSON.stringify(mine)).toBe(JSON.stringify(theirs));
      // TypeBox marks its kinds with symbols, which JSON leaves out.
      const syms = (x: object) => Object.getOwnPropertySymbols(x).map((s) => [String(s), typeof (x as Record<symbol, unknown>)[s]]);
      expect(syms(mine)).toEqual(syms(theirs));
      expect(mine.anyOf.map(syms)).toEqual(theirs.anyOf.map(syms));
    }
  });

  test("the same answers through query and path values, refusals and messages included", async () => {
    let refused = 0;
    for (const o of OPTIONS) {
      const mine = app(lazyInteger, o);
      const theirs = app(elysiaInteger as unknown as typeof lazyInteger, o);
      for (const v of INPUTS) {
        const e = encodeURIComponent(v);
        for (const path of [`/q?n=${e}`, ...(v === "" ? [] : [`/p/${e}`])]) {
          const [a, b] = [await answer(mine, path), await answer(theirs, path)];
          expect({ path, o, ...a }).toEqual({ path, o, ...b });
          if (a.status !== 200) refused++;
        }
      }
      expect((await answer(mine, "/q")).body).toBe((await answer(theirs, "/q")).body);
    }
    // The inputs do reach the refusal path (a comparison of two 200s only would prove little).
    expect(refused).toBeGreaterThan(10);
  });
});
