// Responses (gateway.md "Responses", Events; svcml-and-prompts.md §3.4, §4.5; D10.2).
import type { AppContext } from "../../context";
import { authenticateBusiness } from "../../http/business-auth";
import { BUSINESS_BODY_LIMIT, readJsonObject } from "../../http/body";
import { GatewayError } from "../../http/errors";
import { requestState } from "../../http/request-state";
import { KEEPALIVE_COMMENT, sseResponse } from "../../http/sse";
import { effectiveCompat } from "../../config/effective";
import { collectTurn } from "../../pipeline/collect-turn";
import { coalesceDeltas } from "../../pipeline/coalesce";
import type { ToolChoice, Turn, TurnResult } from "../../pipeline/types";
import { json, RAW_BODY, type RouteApp, type RouteCtx } from "../route-kit";
import { prepareTurn } from "../turn-service";
import { responsesJsonOutput, normalizeResponses } from "./normalize";
import { startTurnWithJsonOutput } from "../json-output-service";
import { flatNameOf, flattenNamespaceTools, toolRefOf } from "./namespace-tools";
import { newResponseId, renderResponse, responsesStreamRenderer, TOOL_CHOICE_VIOLATION, type ResponseMeta, type ResponseObject } from "./render";

const notFound = () => new GatewayError(404, "not_found", "Response not found.");

function requiresCall(choice: ToolChoice): boolean {
  return choice.kind === "required" || choice.kind === "forced" || (choice.kind === "allowed" && choice.required);
}

/** The answer as assistant turns, so a later previous_response_id continues the conversation. */
function outputTurns(res: ResponseObject): Turn[] {
  const calls: { name: string; arguments: unknown; id?: string }[] = [];
  let text = "";
  for (const item of res.output) {
    if (item.type === "message") text += ((item.content as { text: string }[])[0]?.text ?? "");
    if (item.type === "function_call") calls.push({ name: flatNameOf(item.name as string, item.namespace), arguments: item.arguments, id: item.call_id as string });
  }
  return [{ role: "assistant", text, ...(calls.length ? { toolCalls: calls } : {}) }];
}

export function responsesRoutes(app: RouteApp, ctx: AppContext) {
  const create = async ({ request }: RouteCtx) => {
    const state = requestState(request);
    if (state) state.route = "/v1/responses";
    const caller = authenticateBusiness(ctx, request);
    const body = await readJsonObject(request, BUSINESS_BODY_LIMIT);
    const normalized = normalizeResponses(body, { wideInput: effectiveCompat(ctx.config.get()).wide_input_strict_output });
    let previous: Turn[] = [];
    const prevId = typeof body.previous_response_id === "string" && body.previous_response_id ? body.previous_response_id : null;
    if (prevId) {
      const stored = await ctx.responses.get(prevId, caller.ownerHash);
      if (!stored) throw new GatewayError(404, "not_found", "Previous response not found.", { param: "previous_response_id" });
      previous = [...stored.inputTurns, ...stored.outputTurns];
    }
    const inputTurns = normalized.turns;
    const namespaceNames = flattenNamespaceTools(body.tools).names;
    const turn = prepareTurn(ctx, request, body, "responses", { ...normalized, turns: [...previous, ...inputTurns] });
    const store = body.store !== false;
    const meta: ResponseMeta = {
      id: newResponseId(),
      createdAt: Math.floor(ctx.now() / 1000),
      model: turn.requestedModel,
      instructions: typeof body.instructions === "string" ? body.instructions : null,
      tools: Array.isArray(body.tools) ? body.tools : [],
      toolChoice: body.tool_choice ?? "auto",
      previousResponseId: prevId,
      store,
      metadata: body.metadata && typeof body.metadata === "object" ? (body.metadata as Record<string, unknown>) : {},
      exposeThinking: turn.exposeThinking,
      requireCall: requiresCall(turn.toolChoice),
      toolRef: (flat) => toolRefOf(namespaceNames, flat),
    };
    const save = async (res: ResponseObject) => {
      if (!store || res.status === "failed") return;
      await ctx.responses.put({ owner: caller.ownerHash, response: structuredClone(res) as ResponseObject & Record<string, unknown>, inputTurns: turn.turns, outputTurns: outputTurns(res) });
    };
    const running = await startTurnWithJsonOutput(ctx, request, caller, { ...turn, jsonOutput: responsesJsonOutput(body) });
    if (turn.stream) {
      const sse = running.events.pipeThrough(coalesceDeltas()).pipeThrough(responsesStreamRenderer(meta, save));
      return sseResponse(sse, { keepAlive: KEEPALIVE_COMMENT });
    }
    const result: TurnResult = await collectTurn(running.events);
    if (meta.requireCall && !result.calls.some((c) => c.finished)) throw new GatewayError(422, "tool_choice_violation", TOOL_CHOICE_VIOLATION);
    const res = renderResponse(meta, result);
    await save(res);
    return json(res);
  };

  const get = async ({ request, params }: RouteCtx) => {
    const caller = authenticateBusiness(ctx, request);
    const stored = await ctx.responses.get(params.id ?? "", caller.ownerHash);
    if (!stored) throw notFound();
    return json(stored.response);
  };

  const remove = async ({ request, params }: RouteCtx) => {
    const caller = authenticateBusiness(ctx, request);
    const id = params.id ?? "";
    if (!(await ctx.responses.delete(id, caller.ownerHash))) throw notFound();
    return json({ id, object: "response", deleted: true });
  };

  for (const base of ["/v1/responses", "/responses"]) {
    app.post(base, create, RAW_BODY);
    app.get(`${base}/:id`, get);
    app.delete(`${base}/:id`, remove);
  }
}
