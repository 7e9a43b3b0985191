// GET /admin/models (issue 31): every native model and every name that resolves — the built-in alias table, the
// configured aliases, the family heuristic's rules, the retired patterns — and, with ?resolve=<name>, where one
// name goes. The Models page and the Settings alias editor read it.
import type { AppContext } from "../../context";
import type { AdminApp } from "../../http/admin-edge";
import { json } from "../../http/json-response";
import { BUILTIN_ALIAS_GROUPS } from "../../models/aliases";
import { NATIVE_MODEL_IDS } from "../../models/catalog";
import { modelFlags } from "../../models/flags";
import { resolveModel } from "../../models/resolve";
import { RETIRED_PATTERNS } from "../../models/retired";
import { adminDoc } from "./route-docs";
import { ModelsViewQuery } from "./query-schema";

const HEURISTIC_RULES = [
  { when: "name contains vision or -vl", target: "core-v4-vision" },
  { when: "reasoning or top tier (o<digits>, opus, -pro, codex, reason, think, -r1, qwq, magistral) and search", target: "core-v4-pro-search" },
  { when: "reasoning or top tier", target: "core-v4-pro" },
  { when: "name contains search", target: "core-v4-flash-search" },
  { when: "any other name of a known family (gpt-, claude-, gemini-, llama-, qwen, mistral-, grok-, kimi-, glm-…)", target: "core-v4-flash" },
];

export function modelsViewRoutes(app: AdminApp, ctx: AppContext): void {
  app.get(
    "/admin/models",
    ({ query }) => {
      const aliases = ctx.config.get().model_aliases ?? {};
      const name = query.resolve ?? null;
      const resolved = name === null ? undefined : resolveModel(name, aliases);
      return json({
        native: NATIVE_MODEL_IDS.map((id) => ({ id, ...modelFlags(id) })),
        builtin_aliases: BUILTIN_ALIAS_GROUPS.map((g) => ({ family: g.family, target: g.target, names: [...g.names] })),
        configured_aliases: Object.entries(aliases).map(([from, to]) => ({ name: from, target: to })),
        heuristic: HEURISTIC_RULES,
        retired_patterns: RETIRED_PATTERNS.map((re) => re.source),
        nothinking_suffix: "-nothinking",
        ...(resolved === undefined ? {} : { resolve: { name, ...(resolved.ok ? { ok: true, id: resolved.id } : { ok: false, code: resolved.code, message: resolved.message }) } }),
      });
    },
    { ...adminDoc("GET /admin/models"), admin: true, query: ModelsViewQuery },
  );
}
