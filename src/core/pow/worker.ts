// A PoW worker thread: solves one challenge per message, off the event loop (core-upstream §6.5).
import { solveRange } from "./solve";

declare const self: Worker;

self.onmessage = (event: MessageEvent<{ id: number; salt: string; expireAt: number; difficulty: number; target: string }>) => {
  const { id, salt, expireAt, difficulty, target } = event.data;
  const answer = solveRange({ salt, expireAt, difficulty, target: Uint8Array.from(Buffer.from(target, "hex")) });
  self.postMessage({ id, answer });
};
