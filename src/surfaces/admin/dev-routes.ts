// Developer captures and raw samples (gateway.md "Developer capture endpoints", D13): the in-memory
// captures of calls to core, chain search, saving a chain to disk, and capturing a fresh request.
import type { AppContext } from "../../context";
import { keepOpen } from "../../context";
import { chainSummary, type CaptureChain } from "../../store/captures";
import { defaultSampleId, saveSample, sampleIdProblem, type SampleMetaExtra } from "../../store/raw-samples";
import { json } from "../../http/json-response";
import type { AdminApp } from "../../http/admin-edge";
import { RawSampleCaptureBody, RawSampleSaveBody } from "./schema";
import { notFound } from "./admin-kit";
import { invalidRequest } from "../../util/invalid-request";
import { GatewayError } from "../../util/gateway-error";
import { callerKey, parseBody, selfChat } from "./self-call";
import { adminDoc } from "./route-docs";
import { SampleQuery } from "./query-schema";

/** D13.4: the given id if valid, else 400; absent → a generated one. */
function sampleIdFrom(ctx: AppContext, body: { sample_id?: string | null }): string {
  const given = body.sample_id;
  if (given === undefined || given === null || given === "") return defaultSampleId(ctx.now());
  const problem = sampleIdProblem(given);
  if (problem) throw invalidRequest(problem);
  return given;
}

/** Out of 1–50 is clamped, not refused (the schema refuses only what is not a number). */
const sampleLimit = (limit: number | undefined) => (limit === undefined ? 20 : Math.min(50, Math.max(1, limit)));

async function save(ctx: AppContext, id: string, chain: CaptureChain, extra: SampleMetaExtra) {
  try {
    return await saveSample(ctx.dataDir, id, chain, extra, ctx.now());
  } catch (e) {
    // The OS error code is enough to act on; the full message would name paths outside the data dir.
    const code = (e as { code?: string })?.code ?? "EIO";
    throw new GatewayError(500, "internal_error", `Could not write the sample (${code}).`);
  }
}

export function devRoutes(app: AdminApp, ctx: AppContext): void {
  app.get(
    "/admin/dev/captures",
    () => {
      const items = ctx.captures.list();
      return json({ ...ctx.captures.settings, count: items.length, items });
    },
    { ...adminDoc("GET /admin/dev/captures"), admin: true },
  );

  app.delete(
    "/admin/dev/captures",
    () => {
      ctx.captures.clear();
      return json({ success: true, detail: "Capture logs were cleared." });
    },
    { ...adminDoc("DELETE /admin/dev/captures"), admin: true },
  );

  app.get(
    "/admin/dev/raw-samples/query",
    ({ query }) => {
      const q = query.q ?? "";
      const limit = sampleLimit(query.limit);
      const items = ctx.captures.query(q, limit).map(chainSummary);
      return json({ query: q, limit, count: items.length, items });
    },
    { ...adminDoc("GET /admin/dev/raw-samples/query"), admin: true, query: SampleQuery },
  );

  app.post(
    "/admin/dev/raw-samples/save",
    async ({ body }) => {
      const id = sampleIdFrom(ctx, body);
      const chainKey = body.chain_key ?? undefined;
      const captureId = body.capture_id ?? undefined;
      const query = body.query ?? undefined;
      let chain: CaptureChain | undefined;
      if (chainKey) chain = ctx.captures.chain(chainKey);
      else if (captureId) chain = ctx.captures.chainOfCapture(captureId);
      else if (query !== undefined) chain = ctx.captures.query(query, 1)[0];
      else throw invalidRequest("Select a chain with chain_key, capture_id or query.");
      if (!chain) throw notFound("No matching capture chain.");
      const saved = await save(ctx, id, chain, {});
      return json({ success: true, ...saved, chain_key: chain.chain_key, capture_ids: chain.items.map((i) => i.id), round_count: chain.items.length });
    },
    { ...adminDoc("POST /admin/dev/raw-samples/save"), admin: true, body: RawSampleSaveBody },
  );

  app.post(
    "/admin/dev/raw-samples/capture",
    async ({ request, body }) => {
      keepOpen(ctx, request);
      const id = sampleIdFrom(ctx, body);
      const message = body.message || "Hello!";
      const messages = Array.isArray(body.messages) ? body.messages : [{ role: "user", content: message }];
      const model = body.model?.trim() || "core-v4-flash";
      const stream = body.stream ?? true;
      const key = callerKey(ctx, body.api_key);
      const chatBody = { model, messages, stream };
      // D13.6: this request is captured even when captures are off. Its chain key is the request id
      // selfChat picks, so recording is forced for exactly that id and lifted afterwards.
      let chainKey = "";
      let unforce = () => {};
      let r;
      try {
        r = await selfChat(ctx, key, chatBody, undefined, (requestId) => {
          chainKey = requestId;
          unforce = ctx.captures.force(requestId);
        });
      } finally {
        unforce();
      }
      if (r.status !== 200)
        return json({ detail: `The capture request failed with HTTP ${r.status}.`, status_code: r.status, response: parseBody(r.text) }, 502);
      const chain = ctx.captures.chain(chainKey);
      if (!chain) throw new GatewayError(422, "no_capture", "The request succeeded but no upstream capture was recorded.");
      const saved = await save(ctx, id, chain, { model, stream, request: chatBody });
      return json({ success: true, ...saved, status_code: r.status }, 200, {
        "X-Svc-Sample-Id": saved.sample_id,
        "X-Svc-Sample-Dir": saved.dir,
        "X-Svc-Sample-Meta": saved.meta_path,
        "X-Svc-Sample-Upstream": saved.upstream_path,
      });
    },
    { ...adminDoc("POST /admin/dev/raw-samples/capture"), admin: true, body: RawSampleCaptureBody },
  );
}
