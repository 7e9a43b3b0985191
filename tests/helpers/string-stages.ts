// Stages over strings for the tests of the stage runners (staged-stream.ts): what each shows is visible in its output.
import type { SyncTransformer } from "../../src/pipeline/stage";

/** Numbers what it sees, opens with "open", closes with "close"; every third item a second output. */
export const tagger = (name: string): SyncTransformer<string, string> => {
  let n = 0;
  return {
    start: (c) => c.enqueue(`${name}:open`),
    transform: (x, c) => {
      c.enqueue(`${name}${++n}(${x})`);
      if (n % 3 === 0) c.enqueue(`${name}${n}:extra`);
    },
    flush: (c) => c.enqueue(`${name}:close`),
  };
};

/** Drops every item that contains "drop": a stage whose batch may come out empty. */
export const dropper = (): SyncTransformer<string, string> => ({ transform: (x, c) => (x.includes("drop") ? undefined : c.enqueue(x)) });
