// Model lists (gateway.md "Probes and models", D6.1, D6.6, D6.7). No authentication.
import type { AppContext } from "../../context";
import { GatewayError } from "../../http/errors";
import { generateContentModelList, generateContentModelObject, nativeModelObject, nativeModelObjects } from "../../models/catalog";
import { messagesModelItem, messagesModelList } from "../../models/messages-list";
import { resolveModel } from "../../models/resolve";
import { json, type RouteApp, type RouteCtx } from "../route-kit";

export function modelRoutes(app: RouteApp, ctx: AppContext) {
  const aliases = () => ctx.config.get().model_aliases;
  const list = () => json({ object: "list", data: nativeModelObjects() });
  const one = ({ params }: RouteCtx) => {
    const raw = params.id ?? "";
    const id = decodeURIComponent(raw);
    const r = resolveModel(id, aliases());
    if (!r.ok) throw new GatewayError(404, "model_not_found", `The model '${id}' does not exist.`, { param: "model" });
    return json(nativeModelObject(r.id));
  };
  app.get("/v1/models", list);
  app.get("/models", list);
  app.get("/v1/models/:id", one);
  app.get("/models/:id", one);

  app.get("/msgapi/v1/models", () => json({ object: "list", ...messagesModelList(aliases()) }));
  app.get("/msgapi/v1/models/:id", ({ params }) => {
    const item = messagesModelItem(decodeURIComponent(params.id), aliases());
    if (!item) throw new GatewayError(404, "model_not_found", `The model '${params.id}' does not exist.`, { param: "model" });
    return json(item);
  });

  app.get("/v1beta/models", () => json(generateContentModelList()));
  app.get("/v1beta/models/:model", ({ params }) => {
    const name = decodeURIComponent(params.model);
    const r = resolveModel(name, aliases());
    if (!r.ok) throw new GatewayError(404, "model_not_found", `Model ${name} is not found.`);
    return json(generateContentModelObject(r.id));
  });
}
