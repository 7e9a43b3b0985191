// The build (build.ts) defines SVC_BUILD_VERSION; from source the version is read from package.json (D15.1).
import pkg from "../package.json" with { type: "json" };

declare const SVC_BUILD_VERSION: string | undefined;

function buildVersion(): string | undefined {
  try {
    return typeof SVC_BUILD_VERSION === "string" ? SVC_BUILD_VERSION : undefined;
  } catch {
    return undefined;
  }
}

const built = buildVersion();

export const VERSION: string = built ?? pkg.version;
export const VERSION_SOURCE: "build" | "dev" = built ? "build" : "dev";
