// A config write is an edit of the operator's file, not a re-serialisation (src/config/file-edit.ts): after a
// login token is saved or a key is added, everything the operator wrote that the change does not concern is on
// disk byte for byte as they wrote it — layout, key order, `1.0`, unknown keys, their own later edits.
import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { findNodeAtLocation, parseTree } from "jsonc-parser";
import { editConfigText, formattingOf } from "../../src/config/file-edit";
import { loadConfig } from "../../src/config/load";
import { ConfigStore } from "../../src/config/store";
import { startGateway, type RunningGateway } from "../../src/server";
import { createLogger } from "../../src/util/log";
import type { CoreSimulator } from "../../src/sim/index";
import { startTestSimulator } from "../helpers/sim";
import { scratchDir } from "../helpers/scratch";

/**
 * The text with the member at `path` cut out together with the separator before it: what the file was before the
 * gateway appended that member (jsonc-parser's own removal would re-break an inline object over several lines).
 */
function without(text: string, path: (string | number)[]): string {
  const member = findNodeAtLocation(parseTree(text)!, path)!.parent!;
  const siblings = member.parent!.children!;
  const i = siblings.indexOf(member);
  const start = i > 0 ? siblings[i - 1]!.offset + siblings[i - 1]!.length : member.parent!.offset + 1;
  return text.slice(0, start) + text.slice(member.offset + member.length);
}

const OPERATOR_TEXT = [
  "{",
  '\t"model_aliases": {"gpt-x": "core-v4-flash"},',
  '\t"accounts": [',
  '\t\t{"email": "a@sim.test", "password": "pw", "max_inflight": 2}',
  "\t],",
  '\t"x_operator_note": "kept as written",',
  '\t"runtime": {"token_refresh_interval_hours": 6.0},',
  '\t"keys": ["k1", "k2"]',
  "}",
  "",
].join("\r\n");

describe("editConfigText", () => {
  const base = JSON.parse(OPERATOR_TEXT);

  test("a saved token adds one member and leaves every other byte", () => {
    const next = structuredClone(base);
    next.accounts[0].token = "tok-123";
    const text = editConfigText(OPERATOR_TEXT, base, next)!;
    expect(JSON.parse(text).accounts[0].token).toBe("tok-123");
    expect(without(text, ["accounts", 0, "token"])).toBe(OPERATOR_TEXT);
  });

  test("a changed value is rewritten in place; `6.0` and the CRLF line ends elsewhere stay", () => {
    const next = structuredClone(base);
    next.model_aliases["gpt-x"] = "core-v4-pro";
    const text = editConfigText(OPERATOR_TEXT, base, next)!;
    expect(text).toBe(OPERATOR_TEXT.replace('"gpt-x": "core-v4-flash"', '"gpt-x": "core-v4-pro"'));
  });

  test("a member the config normalised at load (api_keys from keys) is written whole when it changes", () => {
    const loaded = { ...base, api_keys: [{ key: "k1", name: "", remark: "" }, { key: "k2", name: "", remark: "" }] };
    const next = structuredClone(loaded);
    next.api_keys.push({ key: "k3", name: "new", remark: "" });
    next.keys.push("k3");
    const text = editConfigText(OPERATOR_TEXT, loaded, next)!;
    expect(JSON.parse(text)).toEqual(next);
    expect(text).toContain('\t"x_operator_note": "kept as written",\r\n\t"runtime": {"token_refresh_interval_hours": 6.0},');
  });

  test("a removed account goes, the rest stays as written", () => {
    const two = OPERATOR_TEXT.replace('"max_inflight": 2}', '"max_inflight": 2},\r\n\t\t{"email": "b@sim.test", "password": "pw2"}');
    const parsed = JSON.parse(two);
    const next = structuredClone(parsed);
    next.accounts.splice(1, 1);
    const text = editConfigText(two, parsed, next)!;
    expect(JSON.parse(text)).toEqual(next);
    expect(text).toContain('"x_operator_note": "kept as written"');
    expect(text).toContain("6.0");
  });

  test("what the operator edited since the last write stays; the gateway's change lands beside it", () => {
    const edited = OPERATOR_TEXT.replace('"x_operator_note"', '"x_added_by_hand": [1.50, 2],\r\n\t"x_operator_note"');
    const next = structuredClone(base);
    next.accounts[0].token = "tok-9";
    const text = editConfigText(edited, base, next)!;
    expect(without(text, ["accounts", 0, "token"])).toBe(edited);
  });

  test("text that is not a JSON object is left to a whole write", () => {
    expect(editConfigText('{"keys": [', base, base)).toBeNull();
    expect(editConfigText("[]", base, base)).toBeNull();
  });

  test("two-space and tab files get inserts indented like their neighbours", () => {
    expect(formattingOf('{\n  "a": 1\n}')).toEqual({ insertSpaces: true, tabSize: 2, eol: "\n" });
    expect(formattingOf('{\r\n\t"a": 1\r\n}')).toEqual({ insertSpaces: false, tabSize: 1, eol: "\r\n" });
  });
});

describe("ConfigStore writes edits to the file", () => {
  test("an unrelated change keeps the operator's keys form and layout; adding a key writes both forms (D2.7)", async () => {
    const path = join(scratchDir("svc-file-edit-"), "config.json");
    writeFileSync(path, OPERATOR_TEXT);
    const store = ConfigStore.fromLoaded(await loadConfig({ configPath: path, env: {} }));
    await store.update((c) => {
      c.model_aliases = { ...c.model_aliases, "gpt-y": "core-v4-pro" };
    });
    const afterAlias = readFileSync(path, "utf8");
    expect(without(afterAlias, ["model_aliases", "gpt-y"])).toBe(OPERATOR_TEXT);
    await store.update((c) => {
      c.api_keys = [...(c.api_keys ?? []), { key: "k3", name: "ci", remark: "" }];
    });
    const onDisk = JSON.parse(readFileSync(path, "utf8"));
    expect(onDisk.keys).toEqual(["k1", "k2", "k3"]);
    expect(onDisk.api_keys.map((r: { key: string }) => r.key)).toEqual(["k1", "k2", "k3"]);
    expect(readFileSync(path, "utf8")).toContain('\t"x_operator_note": "kept as written",\r\n\t"runtime": {"token_refresh_interval_hours": 6.0},');
  });

  test("a file broken by hand since the load is replaced whole, as before", async () => {
    const path = join(scratchDir("svc-file-edit-"), "config.json");
    writeFileSync(path, OPERATOR_TEXT);
    const store = ConfigStore.fromLoaded(await loadConfig({ configPath: path, env: {} }));
    writeFileSync(path, '{"keys": [');
    await store.update((c) => {
      c.model_aliases = { a: "core-v4-pro" };
    });
    expect(JSON.parse(readFileSync(path, "utf8")).model_aliases).toEqual({ a: "core-v4-pro" });
  });
});

describe("a real login saves its token without reformatting the file", () => {
  let sim: CoreSimulator;
  let gw: RunningGateway;
  afterAll(async () => {
    await gw?.drain();
    await sim?.stop();
  });

  test("chat through a managed account → the file is the operator's text plus the token member", async () => {
    sim = await startTestSimulator();
    const dir = scratchDir("svc-file-edit-live-");
    const path = join(dir, "config.json");
    writeFileSync(path, OPERATOR_TEXT);
    gw = await startGateway({
      loaded: await loadConfig({ configPath: path, env: {} }),
      log: createLogger("error", () => {}),
      port: 0,
      host: "127.0.0.1",
      env: { SVC_ADMIN_KEY: "file-edit-admin", SVC_CORE_BASE_URL: sim.url, SVC_DATA_DIR: dir },
      quiet: true,
    });
    const r = await fetch(`http://127.0.0.1:${gw.port}/v1/chat/completions`, {
      method: "POST",
      headers: { Authorization: "Bearer k1", "Content-Type": "application/json" },
      body: JSON.stringify({ model: "gpt-x", messages: [{ role: "user", content: "hi" }] }),
    });
    expect(r.status).toBe(200);
    await r.arrayBuffer();
    await gw.ctx.config.flush();
    const text = readFileSync(path, "utf8");
    expect(typeof JSON.parse(text).accounts[0].token).toBe("string");
    expect(without(text, ["accounts", 0, "token"])).toBe(OPERATOR_TEXT);
  }, 30_000);
});
