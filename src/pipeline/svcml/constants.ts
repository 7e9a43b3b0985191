// Every fixed string and limit of the svcml markup and detector (svcml-and-prompts.md §0).
export const SVCML_WORD = "svcml";
export const TAG_NAMES = ["tool_calls", "invoke", "parameter"] as const;
export type TagKind = (typeof TAG_NAMES)[number];
export const TAG_MAX_CHARS = 1024;
export const CONFIRM_GAP_MAX_CHARS = 1024;
export const BARE_INVOKE_HOLD_MAX_CHARS = 65536;
export const KEEP_AS_TEXT_NAMES = new Set([
  "content",
  "file_content",
  "text",
  "prompt",
  "query",
  "command",
  "cmd",
  "script",
  "code",
  "old_string",
  "new_string",
  "pattern",
  "path",
  "file_path",
]);
/** Openers matched (ASCII case-insensitively) by the scanner; lower-case here. */
export const CDATA_OPENER = "<![cdata[";
export const COMMENT_OPENER = "<!--";
