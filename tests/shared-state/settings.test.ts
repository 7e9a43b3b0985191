// Which shared-state backend a start selects (issue 21): memory unless Redis is asked for, env over config.
import { expect, test } from "bun:test";
import { redactRedisUrl, storeSettings } from "../../src/shared-state/settings";
import { validateConfig } from "../../src/config/validate";

test("memory by default, with nothing to set", () => {
  expect(storeSettings({}, {})).toEqual({ backend: "memory", redisUrl: null, prefix: "svcgw:", leaseTtlMs: 30_000 });
});

test("a Redis URL alone selects Redis; the environment wins over the config", () => {
  expect(storeSettings({}, { SVC_REDIS_URL: "redis://10.0.0.5:6379" }).backend).toBe("redis");
  const s = storeSettings({ store: { redis_url: "redis://file:6379", key_prefix: "a", lease_ttl_seconds: 10 } }, { SVC_REDIS_URL: "redis://env:6379", SVC_REDIS_PREFIX: "b" });
  expect(s).toEqual({ backend: "redis", redisUrl: "redis://env:6379", prefix: "b:", leaseTtlMs: 10_000 });
  expect(storeSettings({ store: { redis_url: "redis://file:6379", backend: "memory" } }, {}).backend).toBe("memory");
  expect(storeSettings({ store: { backend: "redis", redis_url: "redis://x:1" } }, { SVC_STORE_BACKEND: "memory" }).backend).toBe("memory");
});

test("Redis without a URL, or an unknown backend, is a start error", () => {
  expect(() => storeSettings({ store: { backend: "redis" } }, {})).toThrow(/no Redis URL/);
  expect(() => storeSettings({}, { SVC_STORE_BACKEND: "etcd" })).toThrow(/must be "memory" or "redis"/);
});

test("the config schema checks the store section", () => {
  expect(validateConfig({ store: { backend: "redis", redis_url: "redis://h:1", lease_ttl_seconds: 30 } }).ok).toBe(true);
  expect(validateConfig({ store: { backend: "mongo" } }).ok).toBe(false);
  expect(validateConfig({ store: { redis_url: "http://h:1" } }).ok).toBe(false);
  expect(validateConfig({ store: { lease_ttl_seconds: 1 } }).ok).toBe(false);
});

test("a Redis URL in a message never carries its password", () => {
  expect(redactRedisUrl("redis://:s3cret@10.0.0.5:6379/0")).toBe("redis://:***@10.0.0.5:6379/0");
  expect(redactRedisUrl("redis://user:s3cret@h:1")).not.toContain("s3cret");
});
