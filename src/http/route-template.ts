// Elysia's route pattern (`/v1/responses/:id`) as the logged route template (`/v1/responses/{id}`, D3.6).
// The set of patterns is fixed once the app is built, so each is rewritten once.
const templates = new Map<string, string>();

export function routeTemplate(route: string): string {
  let t = templates.get(route);
  if (t === undefined) templates.set(route, (t = route.replace(/:([A-Za-z0-9_]+)/g, "{$1}")));
  return t;
}
