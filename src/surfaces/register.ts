// The business and admin surfaces, registered in one place.
import type { AppContext } from "../context";
import type { RouteApp } from "./route-kit";

export function registerSurfaces(_app: RouteApp, _ctx: AppContext): void {}
