// POST /v1/files (gateway.md "Files", D10.4): multipart only, 100 MiB checked before and while reading, the
// body spooled to disk rather than memory, the file uploaded to core on the leased account (pass-through: the caller's token) and bound to it (D8.14).
import { publicDoc } from "../public-docs";
import type { AppContext } from "../../context";
import type { BusinessApp } from "../../http/business-edge";
import { json } from "../../http/json-response";
import type { Caller } from "../../accounts/caller";
import { BUSINESS_BODY_LIMIT, checkDeclaredLength } from "../../http/body";
import { GatewayError } from "../../util/gateway-error";
import { spoolMultipart } from "./multipart";
import { bodyTimeoutOf } from "../../http/body-deadline";
import { resolveModel } from "../../models/resolve";
import { modelFlags } from "../../models/flags";
import { uploadFile } from "../../core/upload";
import { clientError } from "../../turn/client-error";
import { proxyFor } from "../../turn/attempt";

export function filesRoutes(app: BusinessApp, ctx: AppContext): void {
  const handler = async ({ request, caller }: { request: Request; caller: Caller }) => {
    const type = request.headers.get("content-type") ?? "";
    if (!/^multipart\/form-data/i.test(type)) throw new GatewayError(400, "unsupported_media_type", "The body must be multipart/form-data.");
    checkDeclaredLength(request, BUSINESS_BODY_LIMIT);
    if (!request.body) throw new GatewayError(400, "missing_file", "The multipart body has no `file` part.", { param: "file" });
    // The file goes to a temporary file while the body is read (and counted): never held whole in memory.
    const upload = await spoolMultipart(request.body, type, BUSINESS_BODY_LIMIT, bodyTimeoutOf(ctx));
    const purpose = upload.fields.purpose || "assistants";
    const modelName = upload.fields.model || "core-v4-flash";
    const resolved = resolveModel(modelName, ctx.config.get().model_aliases);
    const modelType = resolved.ok ? modelFlags(resolved.id).model_type : "default";
    const lease = caller.mode === "managed" ? await ctx.pool.acquire({ pinned: caller.pinned, signal: request.signal }) : null;
    try {
      const token = lease ? await ctx.accounts.token(lease.account, { signal: request.signal }) : caller.token;
      const f = await uploadFile(ctx.core, token, { data: Bun.file(upload.path, { type: upload.mime }), filename: upload.filename || "upload.bin", mime: upload.mime, modelType, purpose }, { signal: request.signal, proxy: proxyFor(ctx, lease?.account ?? null), pollTimeoutMs: 30_000 }).catch(
        async (e) => {
          // A file still processing after 30 s is returned as `uploaded` (D10.4).
          if ((e as Error).message?.includes("in time")) return null;
          throw e;
        },
      );
      if (!f) throw new GatewayError(503, "upstream_unavailable", "Core did not accept the file.");
      ctx.files.remember(f.id, { account: lease?.account ?? null, tokenHash: lease ? undefined : caller.ownerHash });
      return json({
        id: f.id,
        object: "file",
        bytes: f.bytes,
        created_at: Math.floor(ctx.now() / 1000),
        filename: f.filename,
        purpose,
        status: f.ready ? "processed" : "uploaded",
        status_details: null,
        account_id: lease?.account ?? "",
      });
    } catch (e) {
      throw clientError(e, caller.mode);
    } finally {
      lease?.release();
      await upload.cleanup();
    }
  };
  // The multipart body is streamed to disk by the handler, never parsed whole (D10.4).
  for (const base of ["/v1", ""]) app.post(`${base}/files`, handler, { ...publicDoc("files"), business: true, parse: "none" });
}
