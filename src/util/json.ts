// JSON helpers shared by the core stream stages.

/** The JSON object that s holds, or null (not JSON, or JSON that is not an object: core lines vary). */
export function parseJsonObject(s: string): Record<string, unknown> | null {
  try {
    const v: unknown = JSON.parse(s);
    return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
