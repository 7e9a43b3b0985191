// Model lists (gateway.md "Probes and models", D6.1, D6.6, D6.7). No authentication.
import { t } from "elysia";
import type { BusinessApp } from "../../http/business-edge";
import { publicDoc } from "../public-docs";
import type { AppContext } from "../../context";
import { GatewayError } from "../../util/gateway-error";
import { json } from "../../http/json-response";
import { generateContentModelList, generateContentModelObject, nativeModelObject, nativeModelObjects } from "../../models/catalog";
import { messagesModelItem, messagesModelList } from "../../models/messages-list";
import { resolveModel } from "../../models/resolve";

const ModelIdParams = t.Object({ id: t.String() });

export function modelRoutes(app: BusinessApp, ctx: AppContext): void {
  const aliases = () => ctx.config.get().model_aliases;
  for (const base of ["/v1", ""]) {
    app.get(`${base}/models`, () => json({ object: "list", data: nativeModelObjects() }), publicDoc("models"));
    app.get(
      `${base}/models/:id`,
      ({ params }) => {
        const id = decodeURIComponent(params.id);
        const r = resolveModel(id, aliases());
        if (!r.ok) throw new GatewayError(404, "model_not_found", `The model '${id}' does not exist.`, { param: "model" });
        return json(nativeModelObject(r.id));
      },
      { ...publicDoc("model"), params: ModelIdParams },
    );
  }

  app
    .get("/msgapi/v1/models", () => json({ object: "list", ...messagesModelList(aliases()) }), publicDoc("messagesModels"))
    .get(
      "/msgapi/v1/models/:id",
      ({ params }) => {
        const item = messagesModelItem(decodeURIComponent(params.id), aliases());
        if (!item) throw new GatewayError(404, "model_not_found", `The model '${params.id}' does not exist.`, { param: "model" });
        return json(item);
      },
      { ...publicDoc("messagesModel"), params: ModelIdParams },
    )
    .get("/v1beta/models", () => json(generateContentModelList()), publicDoc("generateModels"))
    .get(
      "/v1beta/models/:model",
      ({ params }) => {
        const name = decodeURIComponent(params.model);
        const r = resolveModel(name, aliases());
        if (!r.ok) throw new GatewayError(404, "model_not_found", `Model ${name} is not found.`);
        return json(generateContentModelObject(r.id));
      },
      { ...publicDoc("generateModel"), params: t.Object({ model: t.String() }) },
    );
}
