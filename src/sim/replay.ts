// The `replay` scenario (core-upstream §12.13): serves a capture sample's upstream.stream.sse round by
// round, byte for byte. The file holds the raw bodies of one request's rounds concatenated; a bare JSON
// line before the first `event: ready` is an upload reply, each `event: ready` line starts the body of
// the completion (first) or of a continue call (later ones).
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Params, Round, ScenarioScript } from "./types";

export interface SplitCapture {
  /** Upload replies (bare JSON lines before the first round), as captured. */
  uploads: string[];
  /** Completion body first, then one body per continue call. */
  rounds: string[];
  /** The ids of the first `ready`, so continue calls can name the captured response message. */
  messageIds?: { request: number; response: number };
}

/**
 * Splits a capture into its rounds. A line `event: ready` can only be an event line (every data payload is
 * one JSON line), so it starts a round even when the previous round ended mid-line and the capture only
 * inserted a single newline.
 */
export function splitCapture(text: string): SplitCapture {
  const starts: number[] = [];
  const re = /^event: ready$/gm;
  for (let m = re.exec(text); m; m = re.exec(text)) starts.push(m.index);
  const head = starts.length ? text.slice(0, starts[0]) : text;
  const uploads = head.split("\n").filter((l) => l.trim().startsWith("{"));
  const rounds = starts.map((s, i) => text.slice(s, starts[i + 1] ?? text.length));
  const out: SplitCapture = { uploads, rounds };
  const ready = rounds[0] ? /^event: ready\ndata: (.*)$/m.exec(rounds[0]) : null;
  try {
    const j = ready ? JSON.parse(ready[1]!) : null;
    if (Number.isInteger(j?.request_message_id) && Number.isInteger(j?.response_message_id)) out.messageIds = { request: j.request_message_id, response: j.response_message_id };
  } catch {
    // A ready line that is not JSON is replayed as it is; the simulator then numbers the messages itself.
  }
  return out;
}

/** The capture text named by the params: `sse` inline, `file` (the .sse file) or `dir` (a sample directory). */
function captureText(p: Params): string {
  if (typeof p.sse === "string") return p.sse;
  const path = typeof p.file === "string" ? p.file : typeof p.dir === "string" ? p.dir : "";
  if (!path) throw new Error("replay needs `sse`, `file` or `dir`");
  const file = statSync(path).isDirectory() ? join(path, "upstream.stream.sse") : path;
  return readFileSync(file, "utf8");
}

/** SSE blocks with their blank line, so `write: "event"` still writes one event per write. */
function blocks(body: string): string[] {
  return body.split(/(?<=\n\n)/).filter((b) => b !== "");
}

export function replayScript(p: Params): ScenarioScript {
  let text: string;
  try {
    text = captureText(p);
  } catch (e) {
    const msg = `replay: ${e instanceof Error ? e.message : String(e)}`;
    return { name: "replay", rounds: [{ http: { status: 400, json: { code: 400, msg, data: null } } }] };
  }
  const cap = splitCapture(text);
  if (!cap.rounds.length) return { name: "replay", rounds: [{ http: { status: 400, json: { code: 400, msg: "replay: the capture has no completion round", data: null } } }] };
  const rounds: Round[] = cap.rounds.map((r) => ({ steps: blocks(r).map((b) => ({ raw: b })) }));
  return { name: "replay", rounds, messageIds: cap.messageIds };
}
