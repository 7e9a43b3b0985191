// The fetch handler main.ts gives to Bun.serve: app.handle on a request that routes on its path whatever its
// Host header (route-url.ts). Everything else, the access log included (access-log.ts), happens inside the app.
import { routableRequest } from "./route-url";

type Handler = (request: Request) => Promise<Response>;

export function servingHandler(app: { handle: Handler }): Handler {
  return (incoming) => app.handle(routableRequest(incoming));
}
