// Issue 18 item 6: the admin JWT of D5.5 (as revised) over a socket, on the in-process gateway.
// tests/e2e/admin-jwt-binary.test.ts runs the same cases on the compiled binary.
import { afterAll, beforeAll, describe } from "bun:test";
import { startLiveGateway, TEST_ADMIN_KEY, type LiveGateway } from "../helpers/gateway";
import { adminJwtCases } from "../helpers/admin-jwt-cases";

let g: LiveGateway;
beforeAll(async () => {
  g = await startLiveGateway({ env: { SVC_CORE_BASE_URL: "http://127.0.0.1:9" } });
});
afterAll(() => g.stop());

describe("admin JWT (D5.5), in process", () => adminJwtCases(() => ({ url: g.url, adminKey: TEST_ADMIN_KEY })));
