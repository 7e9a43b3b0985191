// The two HTML documents: the console shell (its script and sheet are the only content; all data comes from
// the admin API after sign-in) and the landing page at `/`. Neither holds data nor any inline script.
import { VERSION } from "../version";

function esc(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function consoleHtml(jsEtag: string, cssEtag: string): string {
  // The ETag in the query makes a new build fetch new assets even through a cache that ignores revalidation.
  const v = (etag: string) => encodeURIComponent(etag.replace(/"/g, ""));
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="referrer" content="no-referrer">
<title>svc-gateway console</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/admin/assets/app.css?v=${v(cssEtag)}">
<script type="module" src="/admin/assets/app.js?v=${v(jsEtag)}"></script>
</head>
<body>
<div id="app"><noscript>The svc-gateway console needs JavaScript.</noscript></div>
</body>
</html>
`;
}

export function landingHtml(cssEtag: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>svc-gateway</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/admin/assets/app.css?v=${encodeURIComponent(cssEtag.replace(/"/g, ""))}">
</head>
<body>
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
