// Issue 33 item 5: the deployment documents agree with each other, with nginx and with what is installed.
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "../..");
const read = (p: string) => readFileSync(join(ROOT, p), "utf8");
const nginxBlocks = (md: string) => [...md.matchAll(/^```nginx\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);

describe("deployment docs", () => {
  test("every nginx recipe accepts a 100 MB upload with the same limit (110m)", () => {
    const blocks = [...nginxBlocks(read("docs/deployment.md")), ...nginxBlocks(read("docs/scaling.md"))];
    expect(blocks.length).toBeGreaterThanOrEqual(2);
    for (const b of blocks) expect(/client_max_body_size\s+(\S+);/.exec(b)?.[1]).toBe("110m");
  });

  test("no recipe asks nginx to retry a 503, which it never does for a POST without non_idempotent", () => {
    for (const b of [...nginxBlocks(read("docs/deployment.md")), ...nginxBlocks(read("docs/scaling.md"))])
      for (const line of b.split("\n").filter((l) => /^\s*proxy_next_upstream\s/.test(l)))
        if (line.includes("http_503")) expect(line).toContain("non_idempotent");
  });

  test("every nginx recipe drops a client's Forwarded header and the gateways trust the proxy", () => {
    for (const b of [...nginxBlocks(read("docs/deployment.md")), ...nginxBlocks(read("docs/scaling.md"))]) expect(b).toContain('proxy_set_header Forwarded "";');
    expect(read("docs/deployment.md")).toContain("SVC_TRUSTED_PROXIES=127.0.0.1");
    expect(read("docs/scaling.md")).toContain("SVC_TRUSTED_PROXIES=127.0.0.1");
    expect(read("deploy/svc-gateway.service")).toContain("Environment=SVC_TRUSTED_PROXIES=127.0.0.1");
  });

  test("the unit's Documentation= names a file that deployment.md installs from the repository", () => {
    const doc = /^Documentation=file:\/\/(\S+)$/m.exec(read("deploy/svc-gateway.service"))?.[1];
    expect(doc).toBeTruthy();
    const install = new RegExp(`install [^\\n]*?(\\S+) ${doc!.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`).exec(read("docs/deployment.md"));
    expect(install).not.toBeNull();
    expect(existsSync(join(ROOT, install![1]!))).toBe(true);
  });

  test("the release command the docs give works on the npm-only path", () => {
    const deployment = read("docs/deployment.md");
    expect(deployment).toContain("npm run release");
    expect(JSON.parse(read("package.json")).scripts.release).toBeTruthy();
    // `bun run release` only ever as the alternative for machines with bun on PATH.
    for (const m of deployment.matchAll(/`bun run release[^`]*`/g)) expect(deployment.slice(m.index!, m.index! + 80)).toContain("where bun is on PATH");
  });

  test("/readyz is documented where scaling.md uses it, with decisions.md 1.5's no-dependency rule", () => {
    expect(read("docs/scaling.md")).toContain("/readyz");
    const ops = read("docs/operations.md");
    expect(ops).toContain("`GET /readyz`");
    expect(ops).toMatch(/Neither checks a dependency/);
  });
});
