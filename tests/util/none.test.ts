// The shared empty list (src/util/none.ts): holders start with it and get a list of their own with their first
// item, so no holder ever sees another's items, and adding to the shared one by mistake fails at once.
import { describe, expect, test } from "bun:test";
import { none, pushed } from "../../src/util/none";

describe("none() and pushed()", () => {
  test("the first item gives the holder a list of its own; later items go to that list", () => {
    let a = none<number>();
    let b = none<number>();
    expect(a).toBe(b as unknown as number[]);
    a = pushed(a, 1);
    b = pushed(b, 2);
    expect(a).toEqual([1]);
    expect(b).toEqual([2]);
    const own = a;
    a = pushed(a, 3);
    expect(a).toBe(own);
    expect(a).toEqual([1, 3]);
    expect(none<number>()).toEqual([]);
  });

  test("adding to the shared list directly throws instead of sharing the item with every holder", () => {
    expect(() => none<number>().push(1)).toThrow(TypeError);
    expect(none<number>().length).toBe(0);
  });
});
