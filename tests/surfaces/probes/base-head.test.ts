// Issue 16 item 6: Claude Code sends `HEAD <base URL>` at every start; a surface base path answers 200 with
// no body (no credentials needed: it says only that the gateway is there), other methods stay 404.
import { describe, expect, test } from "bun:test";
import { makeTestApp } from "../../helpers/app";
import { SURFACE_BASES } from "../../../src/surfaces/probes/routes";

describe("HEAD on surface base paths", async () => {
  const t = await makeTestApp();

  test.each(["/msgapi", "/", "/v1", "/v1beta", "/msgapi/v1"])("HEAD %s → 200, empty body", async (path) => {
    expect(SURFACE_BASES).toContain(path);
    const r = await t.req(path, { method: "HEAD" });
    expect(r.status).toBe(200);
    expect(await r.text()).toBe("");
  });

  test("GET on a base path is still 404, and HEAD elsewhere is not made 200", async () => {
    expect((await t.req("/msgapi")).status).toBe(404);
    expect((await t.req("/v1/nothing-here", { method: "HEAD" })).status).toBe(404);
  });
});
