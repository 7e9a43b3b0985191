// The detector's scan buffer and parameter body reader on their own (issue 17 item 5); the detector's
// differential tests cover them in use.
import { describe, expect, test } from "bun:test";
import { ScanBuffer } from "../../../src/pipeline/svcml/scan-buffer";
import { openBody, scanCdataValue, PLAIN_BODY } from "../../../src/pipeline/svcml/param-body";
import { NewlineCache } from "../../../src/pipeline/svcml/fence";

describe("ScanBuffer", () => {
  test("dropping moves positions down; kept text stays sliceable at negative positions; restore puts it back", () => {
    const b = new ScanBuffer();
    b.append("0123456789");
    expect(b.drop(6, 2)).toBe(-6);
    expect(b.text).toBe("6789");
    expect(b.slice(-4, 2)).toBe("234567");
    b.append("ab");
    expect(b.drop(2, -4)).toBe(-2);
    expect(b.slice(-6, 1)).toBe("234567" + "8");
    expect(b.restore()).toBe(6);
    expect(b.text).toBe("23456789ab");
    expect(b.restore()).toBe(0);
  });

  test("a keepFrom at or past the floor keeps nothing; forgetKept drops what was kept", () => {
    const b = new ScanBuffer();
    b.append("abcdef");
    b.drop(3, Infinity);
    expect(b.text).toBe("def");
    expect(b.restore()).toBe(0);
    b.drop(1, 0);
    b.forgetKept();
    expect(b.restore()).toBe(0);
  });
});

describe("parameter body reader", () => {
  const lines = new NewlineCache();
  test("a CDATA opener starts a value; plain text is the shared plain marker; a split opener waits", () => {
    expect(openBody("<![CDATA[x]]>", 0, false, lines)).toMatchObject({ isCdata: true, valueStart: 9, ended: false });
    expect(openBody("README.md", 0, false, lines)).toBe(PLAIN_BODY);
    expect(openBody("<![CD", 0, false, lines)).toBeNull();
    expect(openBody("<![CD", 0, true, lines)).toBe(PLAIN_BODY);
  });

  test("the value ends at the first ]]> outside a fence opened in it; rejoined sections continue it", () => {
    const plain = "<![CDATA[a]]></p>";
    const c = openBody(plain, 0, false, lines)!;
    expect(scanCdataValue(plain, c, false)).toBe("ended");
    expect(plain.slice(c.valueStart, c.valueEnd)).toBe("a");

    const fenced = "<![CDATA[```\nx]]>y\n```\n]]></p>";
    const f = openBody(fenced, 0, false, lines)!;
    expect(scanCdataValue(fenced, f, false)).toBe("ended");
    expect(fenced.slice(f.valueStart, f.valueEnd)).toBe("```\nx]]>y\n```\n");

    const joined = "<![CDATA[a]]]]><![CDATA[>b]]></p>";
    const j = openBody(joined, 0, false, lines)!;
    expect(scanCdataValue(joined, j, false)).toBe("ended");
    expect(j.rejoined).toBe(true);
  });

  test("no end yet: read all (or wait on a split opener after ]]>); at the end of input: end of input", () => {
    const open = "<![CDATA[abc";
    const c = openBody(open, 0, false, lines)!;
    expect(scanCdataValue(open, c, false)).toBe("read all");
    expect(scanCdataValue(open, c, true)).toBe("end of input");
    const split = "<![CDATA[a]]><![CD";
    expect(scanCdataValue(split, openBody(split, 0, false, lines)!, false)).toBe("wait");
  });
});
