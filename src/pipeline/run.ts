// Moved to src/turn/runner.ts (issue 17: the runner owns orchestration, pipeline/ stays pure stages). This
// re-export only keeps route files that still import it compiling while issue 18 rewrites them; delete it then.
export * from "../turn/runner";
