// The bare-invoke hold on its own (issue 34 item 4): its positions follow the scan buffer, the limit releases
// at one fixed point, and ending the hold hands back the waiting calls. The detector tests cover it in use.
import { describe, expect, test } from "bun:test";
import { BareHold } from "../../../src/pipeline/svcml/bare-hold";
import { ScanBuffer } from "../../../src/pipeline/svcml/scan-buffer";
import { BARE_INVOKE_HOLD_MAX_CHARS } from "../../../src/pipeline/svcml/constants";
import { newInvoke } from "../../../src/pipeline/svcml/call-builder";

describe("BareHold", () => {
  test("holds nothing until begun; its positions stay on their characters when the buffer drops text", () => {
    const b = new ScanBuffer();
    const h = new BareHold(b);
    expect([h.held, h.pending]).toEqual([false, false]);
    b.append("prose <invoke name=\"x\"></invoke> more");
    h.start.at = 6;
    h.pendingEnd.at = 32;
    b.drop(4, Infinity);
    expect([h.held, h.pending, h.start.at, h.pendingEnd.at]).toEqual([true, true, 2, 28]);
    expect(b.text.slice(h.start.at, h.start.at + 7)).toBe("<invoke");
  });

  test("the limit is measured from the start and releases at start + limit + 1, however the pushes fell", () => {
    const b = new ScanBuffer();
    const h = new BareHold(b);
    b.append("x".repeat(10));
    h.start.at = 3;
    expect(h.overLimit(3 + BARE_INVOKE_HOLD_MAX_CHARS)).toBe(false);
    expect(h.overLimit(4 + BARE_INVOKE_HOLD_MAX_CHARS)).toBe(true);
    expect(h.limitPoint).toBe(4 + BARE_INVOKE_HOLD_MAX_CHARS);
    b.drop(2, Infinity);
    expect(h.limitPoint).toBe(2 + BARE_INVOKE_HOLD_MAX_CHARS);
  });

  test("ending the hold returns the waiting calls and clears it, and a cleared hold stays clear after a restore", () => {
    const b = new ScanBuffer();
    const h = new BareHold(b);
    b.append("abcdef");
    h.start.at = 1;
    const inv = newInvoke("x", true);
    h.calls.push(inv);
    b.drop(3, 0);
    expect(h.end()).toEqual([inv]);
    expect([h.held, h.pending, h.calls]).toEqual([false, false, []]);
    b.restore();
    expect([h.held, h.overLimit(1_000_000)]).toEqual([false, false]);
  });
});
