// coreUrl (src/core/http.ts) addresses what `new URL(path, baseUrl)` does without making a URL object per core
// call: fetch parses the string it is given with the same parser, so the two must parse to the same URL.
import { expect, test } from "bun:test";
import { coreUrl } from "../../src/core/http";

const bases = ["http://127.0.0.1:5001", "http://127.0.0.1:5001/", "https://core.example/prefix/", "http://user:p%40ss@core.example:8443/x", "http://[::1]:9000", "HTTP://Core.Example"];
const paths = ["/api/v0/chat/completion", "/api/v0/file/fetch_files?file_ids=file-1,file-2", "/a b/ü?q=1 2#frag", "relative/path", "//other.example/x", "/"];

test.each(bases.flatMap((b) => paths.map((p) => [b, p] as const)))("%s + %s is what URL makes of it", (base, path) => {
  expect(new URL(coreUrl(path, base)).href).toBe(new URL(path, base).href);
});
