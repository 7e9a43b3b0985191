// Adapts the svcml detector (src/pipeline/svcml/) to the turn assembler.
import type { ToolDef } from "./types";
import type { DetectorLike, FallbackCall } from "./turn-assembler";
import { SvcmlDetector } from "./svcml/detector";
import { schemaLookup } from "./svcml/coerce";
import { thinkingFallback } from "./svcml/parse";

export function makeDetector(opts: { tools: ToolDef[]; suppress: boolean; newId: () => string }): DetectorLike & { hasUnfinished: boolean } {
  return new SvcmlDetector({ tools: schemaLookup(opts.tools), suppress: opts.suppress, newId: opts.newId });
}

export function makeFallback(tools: ToolDef[]): (thinking: string) => FallbackCall[] {
  const schemas = schemaLookup(tools);
  return (thinking) => thinkingFallback(thinking, { tools: schemas }).map((c) => ({ name: c.name, arguments: c.arguments }));
}
