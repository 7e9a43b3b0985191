// The `reqState` slot on Elysia's context: one RequestState (src/metering/request-state.ts) per request, created by the
// app's first onRequest hook (app.ts); the same context object then flows through parse, transform, the handler,
// onError and mapResponse, so hooks and handlers take `{ reqState }` like any other context field. The slot is
// declared with `decorate` only so that every plugin's hooks and handlers are typed with it.
import { Elysia } from "elysia";
import type { RequestState } from "../metering/request-state";

/** Declares `reqState` on the context of every hook and handler of the plugins that use it (named: registered once). */
export const requestStateSlot = new Elysia({ name: "svc-request-state" }).decorate("reqState", null as unknown as RequestState);
