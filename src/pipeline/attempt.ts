// Moved to src/turn/attempt.ts (issue 17). This re-export only keeps route files that still import it
// compiling while issue 18 rewrites them; delete it then.
export * from "../turn/attempt";
