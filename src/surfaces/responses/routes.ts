// Responses (gateway.md "Responses", Events; svcml-and-prompts.md §3.4, §4.5; D10.2).
import { publicDoc } from "../public-docs";
import type { AppContext } from "../../context";
import type { BusinessApp } from "../../http/business-edge";
import { GatewayError } from "../../util/gateway-error";
import { json } from "../../http/json-response";
import { KEEPALIVE_COMMENT } from "../../http/sse";
import { effectiveCompat } from "../../config/effective";
import { coalesceStage } from "../../pipeline/coalesce";
import type { ToolChoice, Turn, TurnResult } from "../../pipeline/types";
import { prepareTurn, turnResult, turnSse } from "../business-turn";
import { responsesJsonOutput, normalizeResponses } from "./normalize";
import { startTurnWithJsonOutput } from "../json-output-service";
import { CUSTOM_INPUT_PARAM, declaredToolList, flatNameOf, flattenNamespaceTools, toolRefOf } from "./namespace-tools";
import { ResponseIdParams, ResponsesBody } from "./schema";
import { newResponseId, renderResponse, responsesStreamStage, TOOL_CHOICE_VIOLATION, type ResponseMeta, type ResponseObject } from "./render";

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
    if (item.type === "custom_tool_call")
      calls.push({ name: flatNameOf(item.name as string, item.namespace), arguments: JSON.stringify({ [CUSTOM_INPUT_PARAM]: item.input }), id: item.call_id as string });
  }
  return [{ role: "assistant", text, ...(calls.length ? { toolCalls: calls } : {}) }];
}

export function responsesRoutes(app: BusinessApp, ctx: AppContext): void {
  for (const base of ["/v1/responses", "/responses"]) {
    app.post(
      base,
      async ({ request, body, caller, reqState }) => {
        const normalized = normalizeResponses(body, { wideInput: effectiveCompat(ctx.config.get()).wide_input_strict_output });
        let previous: Turn[] = [];
        const prevId = typeof body.previous_response_id === "string" && body.previous_response_id ? body.previous_response_id : null;
        if (prevId) {
          const stored = await ctx.responses.get(prevId, caller.ownerHash);
          if (!stored) throw new GatewayError(404, "not_found", "Previous response not found.", { param: "previous_response_id" });
          previous = [...stored.inputTurns, ...stored.outputTurns];
        }
        const inputTurns = normalized.turns;
        const namespaceNames = flattenNamespaceTools(declaredToolList(body)).names;
        const turn = prepareTurn(ctx, reqState, body, "responses", { ...normalized, turns: [...previous, ...inputTurns] });
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
        const running = await startTurnWithJsonOutput(ctx, request, reqState, caller, { ...turn, jsonOutput: responsesJsonOutput(body) });
        if (turn.stream) {
          // The stream has ended for the client when the response is stored; a store failure is only logged.
          const saveLater = (res: ResponseObject) => void save(res).catch((e) => ctx.log.warn("storing a response failed", { error: String((e as Error)?.message ?? e) }));
          return turnSse(running, { keepAlive: KEEPALIVE_COMMENT, meter: reqState }, coalesceStage(), responsesStreamStage(meta, saveLater));
        }
        const result: TurnResult = await turnResult(running);
        if (meta.requireCall && !result.calls.some((c) => c.finished)) throw new GatewayError(422, "tool_choice_violation", TOOL_CHOICE_VIOLATION);
        const res = renderResponse(meta, result);
        await save(res);
        return json(res);
      },
      { ...publicDoc("responses"), business: true, body: ResponsesBody },
    );

    app.get(
      `${base}/:id`,
      async ({ params, caller }) => {
        const stored = await ctx.responses.get(params.id, caller.ownerHash);
        if (!stored) throw notFound();
        return json(stored.response);
      },
      { ...publicDoc("responseGet"), business: true, params: ResponseIdParams },
    );

    app.delete(
      `${base}/:id`,
      async ({ params, caller }) => {
        if (!(await ctx.responses.delete(params.id, caller.ownerHash))) throw notFound();
        return json({ id: params.id, object: "response", deleted: true });
      },
      { ...publicDoc("responseDelete"), business: true, params: ResponseIdParams },
    );
  }
}
