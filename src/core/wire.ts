// Core's endpoint paths (core-upstream §5). The identity values and timeouts come from the `upstream`
// configuration section (src/config/defaults.ts, effectiveUpstream); nothing else spells these strings.
export const PATHS = {
  login: "/api/v0/users/login",
  sessionCreate: "/api/v0/chat_session/create",
  sessionList: "/api/v0/chat_session/fetch_page?lte_cursor.pinned=false",
  sessionDelete: "/api/v0/chat_session/delete",
  sessionDeleteAll: "/api/v0/chat_session/delete_all",
  powChallenge: "/api/v0/chat/create_pow_challenge",
  completion: "/api/v0/chat/completion",
  continue: "/api/v0/chat/continue",
  upload: "/api/v0/file/upload_file",
  fetchFiles: "/api/v0/file/fetch_files",
} as const;

/** The PoW target of a completion and of a continue (core-upstream §5.5, §5.7). */
export const COMPLETION_TARGET = PATHS.completion;
export const UPLOAD_TARGET = PATHS.upload;
