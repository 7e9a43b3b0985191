// Issue 18 item 6: the admin JWT cases on the compiled binary (bun build --compile bundles @elysiajs/jwt and jose).
import { afterAll, beforeAll, describe } from "bun:test";
import { startBinary, type RunningBinary } from "../helpers/binary";
import { adminJwtCases } from "../helpers/admin-jwt-cases";

let bin: RunningBinary;
beforeAll(async () => {
  bin = await startBinary({ env: { SVC_CORE_BASE_URL: "http://127.0.0.1:9" } });
});
afterAll(() => bin.stop());

describe("admin JWT (D5.5), compiled binary", () => adminJwtCases(() => ({ url: bin.url, adminKey: bin.adminKey })));
