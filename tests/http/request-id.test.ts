// Request ids (D3.3, D0.2): a well-formed incoming X-Request-Id is kept, else req_ + 24 lower-case hex, drawn
// from a pool of random bytes refilled as it runs out.
import { describe, expect, test } from "bun:test";
import { newRequestId, requestIdFor } from "../../src/http/request-id";

describe("request ids", () => {
  test("req_ + 24 hex, all different across several refills of the pool", () => {
    const ids = Array.from({ length: 2000 }, () => newRequestId());
    for (const id of ids) expect(id).toMatch(/^req_[0-9a-f]{24}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  test("the hex digits are spread evenly (no digit fixed, as a UUID's version nibble would be)", () => {
    const counts = new Map<string, number>();
    for (let i = 0; i < 2000; i++) for (const ch of newRequestId().slice(4)) counts.set(ch, (counts.get(ch) ?? 0) + 1);
    expect(counts.size).toBe(16);
    // 48,000 digits: 3,000 each on average.
    for (const n of counts.values()) expect(Math.abs(n - 3000)).toBeLessThan(400);
  });

  test("an incoming id is kept when well-formed, replaced otherwise", () => {
    const req = (id: string) => new Request("http://localhost/", { headers: { "X-Request-Id": id } });
    expect(requestIdFor(req("client-1.2:3_x"))).toBe("client-1.2:3_x");
    expect(requestIdFor(req("has space"))).toMatch(/^req_[0-9a-f]{24}$/);
    expect(requestIdFor(req("x".repeat(129)))).toMatch(/^req_[0-9a-f]{24}$/);
  });
});
