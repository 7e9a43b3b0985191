// The collector (core-upstream §7.15, sse-stream-collect.json): a whole completion body through the line
// extractor, for replay tools and non-streaming collection of legacy shapes. Each part goes to its channel
// after the continuation overlap trim; appending stops at the first stop, but data lines are still scanned
// for citation URLs until `[DONE]` or EOF. Output cleaning (§7.16) is a separate step: cleanOutput.
import { CitationLinks } from "./citation-links";
import { parseJsonObject } from "../util/json";
import { cutLeak } from "./filter-text";
import { extractEnvelope, extractPayload, type LineResult, type LineType } from "./line-extract";
import { LineSplitter } from "./line-splitter";
import { overlapTrim } from "./overlap-trim";
import { ReferenceCleaner } from "./reference-markers";

export interface CollectOptions {
  thinkingEnabled: boolean;
}

export interface CollectResult {
  thinking: string;
  /** Visible answer text, markers still raw (cleanOutput decides about them). */
  text: string;
  contentFilter: boolean;
  /** A stop was seen (status FINISHED, `[DONE]`, a filter verdict, an error). */
  stopped: boolean;
  /** "" = none. */
  error: string;
  errorCode?: string;
  responseMessageId?: number;
  /** Legacy citation links, marker number → url. */
  citationLinks: Record<string, string>;
  links: CitationLinks;
}

export class BodyCollector {
  private readonly decoder = new TextDecoder("utf-8");
  private readonly lines = new LineSplitter();
  private readonly onLine = (l: string) => this.pushLine(l);
  private type: LineType;
  private thinking = "";
  private text = "";
  private stopped = false;
  private done = false;
  private contentFilter = false;
  private error = "";
  private errorCode: string | undefined;
  private responseMessageId: number | undefined;
  private readonly links = new CitationLinks();

  constructor(private readonly opts: CollectOptions) {
    this.type = opts.thinkingEnabled ? "thinking" : "text";
  }

  /** Feeds body bytes (any chunking) or text. */
  push(chunk: Uint8Array | string): void {
    this.lines.push(typeof chunk === "string" ? chunk : this.decoder.decode(chunk, { stream: true }), this.onLine);
  }

  /** Feeds one raw line. */
  pushLine(line: string): void {
    if (this.done) return;
    const t = line.trim();
    let result: LineResult | null = null;
    if (t.startsWith("data:")) {
      const rest = t.slice(5).trim();
      if (rest === "[DONE]") {
        this.done = true;
        this.stopped = true;
        return;
      }
      const obj = parseJsonObject(rest);
      if (!obj) return;
      this.links.scan(obj);
      if (this.stopped) return;
      result = extractPayload(obj, this.opts.thinkingEnabled, this.type);
    } else if (t.charCodeAt(0) === 123 /* { */ && !this.stopped) {
      const obj = parseJsonObject(t);
      if (obj) result = extractEnvelope(obj, this.type);
    }
    if (result) this.apply(result);
  }

  private apply(r: LineResult): void {
    this.type = r.nextType;
    if (r.responseMessageId !== undefined) this.responseMessageId = r.responseMessageId;
    for (const part of r.parts) {
      if (part.type === "thinking") this.thinking += overlapTrim(this.thinking, part.text);
      else this.text += overlapTrim(this.text, part.text);
    }
    if (r.contentFilter) this.contentFilter = true;
    if (r.error) {
      this.error = r.error;
      this.errorCode = r.errorCode;
    }
    if (r.stop) this.stopped = true;
  }

  finish(): CollectResult {
    const tail = this.decoder.decode();
    if (tail) this.lines.push(tail, this.onLine);
    this.lines.end(this.onLine);
    return {
      thinking: this.thinking,
      text: this.text,
      contentFilter: this.contentFilter,
      stopped: this.stopped,
      error: this.error,
      ...(this.errorCode !== undefined ? { errorCode: this.errorCode } : {}),
      ...(this.responseMessageId !== undefined ? { responseMessageId: this.responseMessageId } : {}),
      citationLinks: this.links.toRecord(),
      links: this.links,
    };
  }
}

/** Collects a whole body given as text, bytes, or chunks of bytes. */
export function collectBody(body: string | Uint8Array | Iterable<Uint8Array>, opts: CollectOptions): CollectResult {
  const c = new BodyCollector(opts);
  if (typeof body === "string" || body instanceof Uint8Array) c.push(body);
  else for (const chunk of body) c.push(chunk);
  return c.finish();
}

export interface CleanOptions {
  /** compat.strip_reference_markers (default true). */
  stripReferenceMarkers?: boolean;
  /** Legacy citation links apply only when search is enabled. */
  searchEnabled?: boolean;
  /** Link N (1-based) by marker number. */
  links?: CitationLinks | Record<string, string>;
}

/**
 * Output cleaning of collected answer text (§7.16), in order: the leaked-marker cut, reference markers
 * (stripped, or — line path — linked through the citation links, N+1 when a `[reference:0]` exists), then
 * `[citation:N]` → `[N](url)`. Markers without a link stay as they are.
 */
export function cleanOutput(text: string, opts: CleanOptions = {}): string {
  const strip = opts.stripReferenceMarkers ?? true;
  const links = opts.links;
  const get = (n: number): string | null => {
    if (!opts.searchEnabled || !links) return null;
    return links instanceof CitationLinks ? links.get(n) : (links[String(n)] ?? null);
  };
  const cleaner = new ReferenceCleaner(strip, { reference: (n, zeroSeen) => get(zeroSeen ? n + 1 : n), citation: get });
  const cut = cutLeak(text).text;
  return cleaner.push(cut) + cleaner.flush();
}

