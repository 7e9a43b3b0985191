// The collector (core-upstream §7.15) on sse-stream-collect.json, fed as whole text and as bytes one byte at a
// time and in random splits; output cleaning (§7.16); the continuation overlap trim (continue.json).
import { describe, expect, test } from "bun:test";
import { loadVectors } from "../helpers/vectors";
import { onePerUnit, randomSplits } from "../helpers/chunking";
import { BodyCollector, cleanOutput, collectBody } from "../../src/pipeline/collect";
import { CitationLinks } from "../../src/pipeline/citation-links";
import { overlapTrim } from "../../src/pipeline/overlap-trim";
import { stripReferenceMarkers } from "../../src/pipeline/reference-markers";

const enc = new TextEncoder();
const collect = loadVectors("sse-stream-collect.json");

describe("sse-stream-collect.json cases", () => {
  for (const c of collect.cases as any[]) {
    const opts = { thinkingEnabled: c.thinking_enabled };
    const checks = (r: ReturnType<typeof collectBody>) => {
      const e = c.expect;
      if ("text" in e) expect(r.text).toBe(e.text);
      if ("thinking" in e) expect(r.thinking).toBe(e.thinking);
      if ("content_filter" in e) expect(r.contentFilter).toBe(e.content_filter);
      if ("citation_links" in e) expect(r.citationLinks).toEqual(e.citation_links);
    };
    test(`${c.id} — lines`, () => {
      const col = new BodyCollector(opts);
      for (const l of c.body_lines) col.pushLine(l);
      checks(col.finish());
    });
    for (const eol of ["\n", "\r\n", "\n\n"]) {
      const bytes = enc.encode(c.body_lines.join(eol));
      test(`${c.id} — ${JSON.stringify(eol)} body, whole / one byte / random splits`, () => {
        checks(collectBody(bytes, opts));
        checks(collectBody(onePerUnit(bytes), opts));
        for (const seed of [3, 17, 256]) checks(collectBody(randomSplits(bytes, seed, 13), opts));
      });
    }
  }

  test("errors stop collection and carry the §4 kind", () => {
    const r = collectBody('data: {"v":"a"}\n\ndata: {"type":"error","content":"有消息正在生成，请稍后再试"}\n\ndata: {"v":"b"}\n', { thinkingEnabled: false });
    expect([r.text, r.stopped, r.errorCode]).toEqual(["a", true, "upstream_busy"]);
    const env = collectBody('{"code":0,"msg":"","data":{"biz_code":9,"biz_msg":"invalid ref file id","biz_data":null}}', { thinkingEnabled: false });
    expect([env.error, env.errorCode]).toEqual(["invalid ref file id", "upstream_invalid_ref_file_id"]);
  });

  test("links after [DONE] are not collected", () => {
    const r = collectBody('data: [DONE]\ndata: {"v":[{"url":"https://late.example"}]}\n', { thinkingEnabled: false });
    expect(r.citationLinks).toEqual({});
  });
});

describe("output cleaning (sse-stream-collect.json output_cleaning)", () => {
  for (const v of collect.output_cleaning.strip_reference_markers.vectors as any[]) {
    test(`strip: ${v.in}`, () => {
      expect(stripReferenceMarkers(v.in)).toBe(v.out);
      expect(cleanOutput(v.in)).toBe(v.out);
    });
  }
  for (const v of collect.output_cleaning.replace_markers_with_links.vectors as any[]) {
    test(`links: ${v.in}`, () => {
      expect(cleanOutput(v.in, { stripReferenceMarkers: false, searchEnabled: true, links: v.links })).toBe(v.out);
      // Links apply only with search enabled.
      expect(cleanOutput(v.in, { stripReferenceMarkers: false, searchEnabled: false, links: v.links })).toBe(v.in);
    });
  }

  test("with default stripping only [citation:N] survives to be linked; the leaked marker is cut first", () => {
    expect(cleanOutput("a[reference:0] b[citation:1] c", { searchEnabled: true, links: { 1: "https://x.example" } })).toBe("a b[1](https://x.example) c");
    expect(cleanOutput("fine CONTENT_FILTER template")).toBe("fine");
  });

  test("the collector's links feed cleaning end to end", () => {
    const c = (collect.cases as any[]).find((x) => x.id === "text-frozen-after-finished-but-links-still-collected");
    const r = collectBody(c.body_lines.join("\n"), { thinkingEnabled: false });
    expect(cleanOutput(r.text, { searchEnabled: true, links: r.links })).toBe("Result[1](https://example.com/a)");
  });

  test("CitationLinks: positions from 1, duplicates kept, explicit cite_index wins, non-http urls ignored", () => {
    const l = new CitationLinks();
    l.scan({ v: [{ url: "https://a" }, { url: "ftp://no" }, { site_icon: "https://icon" }, { url: "http://b", cite_index: 5 }, { url: "https://a" }] });
    expect(l.toRecord()).toEqual({ 1: "https://a", 2: "http://b", 3: "https://a", 5: "http://b" });
  });
});

describe("continuation overlap trim (continue.json)", () => {
  for (const v of loadVectors("continue.json").trim_vectors as any[]) {
    test(`${JSON.stringify(v.existing).slice(0, 24)} + ${JSON.stringify(v.incoming).slice(0, 24)}`, () => {
      expect(overlapTrim(v.existing, v.incoming)).toBe(v.expected);
    });
  }

  test("the threshold is 32 UTF-8 bytes: 31 bytes are kept as they are, 32 are trimmed", () => {
    const e31 = "x".repeat(30);
    expect(overlapTrim(e31, e31 + "y")).toBe(e31 + "y");
    expect(overlapTrim(e31, e31 + "yz")).toBe("yz");
    expect(overlapTrim("😀".repeat(8), "😀".repeat(8))).toBe(""); // 32 bytes in 16 UTF-16 units
  });
});
