// perConfig: a value derived from the current config is worked out once per config object, again after a write
// (a new object), and shared frozen.
import { describe, expect, test } from "bun:test";
import { perConfig } from "../../src/config/per-config";

describe("perConfig", () => {
  test("derived once per config object, again when the object changes, frozen", () => {
    let current = { n: 1 };
    let calls = 0;
    const doubled = perConfig(() => current, (c) => (calls++, { value: c.n * 2 }));
    expect(doubled()).toEqual({ value: 2 });
    expect(doubled()).toBe(doubled());
    expect(calls).toBe(1);
    expect(Object.isFrozen(doubled())).toBe(true);
    current = { n: 5 };
    expect(doubled()).toEqual({ value: 10 });
    expect(calls).toBe(2);
  });
});
