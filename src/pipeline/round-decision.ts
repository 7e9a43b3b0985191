// The round tracker lives with the core client that joins rounds (core/round-tracker.ts, issue 17).
export * from "../core/round-tracker";
