// Elysia's route pattern (`/v1/responses/:id`) as the logged route template (`/v1/responses/{id}`, D3.6).
export function routeTemplate(route: string): string {
  return route.replace(/:([A-Za-z0-9_]+)/g, "{$1}");
}
