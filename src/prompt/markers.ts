// Core's role markers (svcml-and-prompts.md §0): U+FF5C (fullwidth vertical bar) and U+2581 exactly.
export const MARKER_BOS = "<｜begin▁of▁sentence｜>";
export const MARKER_SYSTEM = "<｜System｜>";
export const MARKER_END_INSTRUCTIONS = "<｜end▁of▁instructions｜>";
export const MARKER_USER = "<｜User｜>";
export const MARKER_ASSISTANT = "<｜Assistant｜>";
export const MARKER_EOS = "<｜end▁of▁sentence｜>";
export const MARKER_TOOL = "<｜Tool｜>";
export const MARKER_END_TOOL_RESULTS = "<｜end▁of▁toolresults｜>";
export const MARKER_END_THINKING = "<｜end▁of▁thinking｜>";

export const ALL_MARKERS = [
  MARKER_BOS,
  MARKER_SYSTEM,
  MARKER_END_INSTRUCTIONS,
  MARKER_USER,
  MARKER_ASSISTANT,
  MARKER_EOS,
  MARKER_TOOL,
  MARKER_END_TOOL_RESULTS,
  MARKER_END_THINKING,
];

/** The ASCII spelling the cleaner also removes (`|` for U+FF5C, `_` for U+2581). */
export const asciiSpelling = (m: string) => m.replaceAll("｜", "|").replaceAll("▁", "_");

export const CONTEXT_FILE_NAME = "conversation-context.txt";
