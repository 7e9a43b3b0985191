// The console's two assets (app.js, app.css), each with a strong ETag and a precomputed gzip body. In the
// compiled binary they come from the build-time defines SVC_CONSOLE_JS / SVC_CONSOLE_CSS (build.ts); from
// source they are bundled once, on first use, so start-up and idle memory are unchanged until someone opens
// the console.
import { bundleConsole, type ConsoleBundle } from "./bundle";

declare const SVC_CONSOLE_JS: string | undefined;
declare const SVC_CONSOLE_CSS: string | undefined;

export interface Asset {
  body: Uint8Array<ArrayBuffer>;
  gzip: Uint8Array<ArrayBuffer>;
  etag: string;
  type: string;
}

export interface ConsoleAssets {
  "app.js": Asset;
  "app.css": Asset;
}

function embedded(): ConsoleBundle | null {
  try {
    if (typeof SVC_CONSOLE_JS === "string" && typeof SVC_CONSOLE_CSS === "string") return { js: SVC_CONSOLE_JS, css: SVC_CONSOLE_CSS };
  } catch {
    // Not defined: running from source.
  }
  return null;
}

function asset(text: string, type: string): Asset {
  const body = new TextEncoder().encode(text);
  // Bun's native hasher, not node:crypto: that module costs a cold start ≈ 15 ms to load (issue 35).
  const etag = `"${Bun.CryptoHasher.hash("sha256", body, "base64url").slice(0, 22)}"`;
  return { body, gzip: Bun.gzipSync(body, { level: 9 }) as Uint8Array<ArrayBuffer>, etag, type };
}

let loading: Promise<ConsoleAssets> | null = null;

export function consoleAssets(): Promise<ConsoleAssets> {
  loading ??= (async () => {
    const b = embedded() ?? (await bundleConsole());
    return { "app.js": asset(b.js, "text/javascript; charset=utf-8"), "app.css": asset(b.css, "text/css; charset=utf-8") };
  })();
  // A failed bundle (a broken source tree) is retried on the next request rather than cached.
  loading.catch(() => {
    loading = null;
  });
  return loading;
}
