import { describe, expect, test } from "bun:test";
import { PATHS, WIRE_DEFAULTS } from "../../src/core/wire";
import { wireConfig } from "../helpers/wire";
import { DEFAULTS } from "../../src/config/defaults";

describe("wire configuration", () => {
  test("defaults are the values of core-upstream §1", () => {
    const w = wireConfig();
    expect(w.pow_algorithm).toBe("CoreHashV1");
    expect(w.pow_header).toBe("x-core-pow-response");
    expect(w.user_agent).toBe("CoreApp/2.0.4 Android/35");
    expect(w.client_version).toBe("2.0.4");
    expect(w.client_platform).toBe("android");
    expect(w.client_locale).toBe("zh_CN");
    expect(w.device_id).toBe("svc-gateway");
    expect([w.request_timeout_ms, w.connect_timeout_ms, w.stream_idle_timeout_ms, w.max_continue_rounds]).toEqual([60000, 15000, 300000, 8]);
    expect([w.file_poll_interval_ms, w.file_poll_max, w.file_poll_timeout_ms, w.delete_timeout_ms]).toEqual([1000, 60, 65000, 10000]);
    expect(w.base_url).toBeNull();
  });

  test("the configuration defaults agree with the wire module (no drift between the two lists)", () => {
    expect({ ...DEFAULTS.upstream }).toEqual({ ...WIRE_DEFAULTS });
  });

  test("an upstream section overrides values; wrong types and empty strings keep the default", () => {
    const w = wireConfig({ base_url: " http://core.test ", user_agent: "X/1", max_continue_rounds: 2, client_version: "", request_timeout_ms: "5" as unknown as number });
    expect(w.base_url).toBe("http://core.test");
    expect(w.user_agent).toBe("X/1");
    expect(w.max_continue_rounds).toBe(2);
    expect(w.client_version).toBe("2.0.4");
    expect(w.request_timeout_ms).toBe(60000);
  });

  test("every endpoint path is under /api/v0/ except the reachability probe", () => {
    for (const [k, p] of Object.entries(PATHS)) if (k !== "probe") expect(p).toStartWith("/api/v0/");
  });
});
