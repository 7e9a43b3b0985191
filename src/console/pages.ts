// The two HTML documents: the console shell (its script and sheet are the only content; all data comes from
// the admin API after sign-in) and the landing page at `/`. Neither holds data nor any inline script.
import { VERSION } from "../version";

function esc(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The ETag in the query makes a new build fetch new assets even through a cache that ignores revalidation. */
function versioned(path: string, etag: string): string {
  return `${path}?v=${encodeURIComponent(etag.replace(/"/g, ""))}`;
}

/** Both documents' start up to </head>: `before` goes before the title, `after` after the style sheet. */
function documentHead(title: string, cssEtag: string, before = "", after = ""): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
${before}<title>${title}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${versioned("/admin/assets/app.css", cssEtag)}">
${after}</head>
`;
}

export function consoleHtml(jsEtag: string, cssEtag: string): string {
  const referrer = `<meta name="referrer" content="no-referrer">\n`;
  const script = `<script type="module" src="${versioned("/admin/assets/app.js", jsEtag)}"></script>\n`;
  return `${documentHead("svc-gateway console", cssEtag, referrer, script)}<body>
<div id="app"><noscript>The svc-gateway console needs JavaScript.</noscript></div>
</body>
</html>
`;
}

export function landingHtml(cssEtag: string): string {
  return `${documentHead("svc-gateway", cssEtag)}<body>
<main class="landing">
<h1>svc-gateway</h1>
<p class="muted">Version ${esc(VERSION)}. A multi-protocol model gateway.</p>
<ul class="links">
<li><a href="/admin">Admin console</a></li>
<li><a href="/v1/models">/v1/models</a> (model list)</li>
<li><a href="/openapi.json">/openapi.json</a> (API reference, generated from the routes)</li>
<li>Guides: README.md and docs/ in the source distribution</li>
</ul>
</main>
</body>
</html>
`;
}
