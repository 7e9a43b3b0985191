// The Dockerfile without a container engine (issue 20): dockerfile-utils' linter finds no problem, and the final
// stage is what the issue asks for. tests/ops-container/ then runs that stage's root filesystem for real.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { validate } from "dockerfile-utils";
import { readFinalStage } from "../ops-container/dockerfile";

const DOCKERFILE = resolve(import.meta.dir, "../../Dockerfile");

describe("Dockerfile", () => {
  test("the linter reports no problem", () => {
    expect(validate(readFileSync(DOCKERFILE, "utf8")).map((d) => `${d.range.start.line + 1}: ${d.message}`)).toEqual([]);
  });

  test("multi-stage; the final image is distroless, holds only the binary and /data, runs as non-root, checks health with probe", () => {
    const stage = readFinalStage(DOCKERFILE);
    expect(stage.base).toStartWith("gcr.io/distroless/");
    expect(stage.copies.every((c) => c.from === "build")).toBe(true);
    expect(stage.copies.map((c) => c.dest).sort()).toEqual(["/data", "/usr/local/bin/svc-gateway"]);
    const [uid] = stage.user.split(":").map(Number);
    expect(uid).toBeGreaterThan(0);
    expect(stage.copies.find((c) => c.dest === "/data")?.chown).toBe(stage.user);
    expect(stage.volumes).toEqual(["/data"]);
    expect(stage.env).toMatchObject({ SVC_CONFIG_PATH: "/data/config.json", SVC_DATA_DIR: "/data" });
    expect(stage.healthcheck).toEqual([...stage.entrypoint, "probe"]);
    expect(stage.entrypoint).toEqual(["/usr/local/bin/svc-gateway"]);
  });
});
