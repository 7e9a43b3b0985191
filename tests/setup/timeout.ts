// The per-test default timeout for the whole suite. Bun 1.4 ignores `[test] timeout` in bunfig.toml, and a
// setDefaultTimeout() in a preload only reaches the first test file (the default is reset per file), so this
// preload registers a loader plugin that starts every *.test.ts with the call. It is prepended on the file's
// first line, so line numbers in failures stay right, and a plain `bun test` (what CI runs) gets it.
import { plugin } from "bun";

export const TEST_TIMEOUT_MS = 60_000;

plugin({
  name: "suite-default-test-timeout",
  setup(build) {
    build.onLoad({ filter: /\.test\.ts$/ }, async ({ path }) => ({
      contents: `import { setDefaultTimeout as __suiteTimeout } from "bun:test"; __suiteTimeout(${TEST_TIMEOUT_MS}); ` + (await Bun.file(path).text()),
      loader: "ts",
    }));
  },
});
