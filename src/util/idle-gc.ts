// Idle memory stays small (the brief; issue 15's soak): after a burst of traffic the JavaScript heap keeps the
// pages it grew to until a full collection runs, and an idle server allocates too little to trigger one. So once
// the server has been quiet for a moment after serving requests, one full collection returns those pages.
export interface IdleGc {
  /** Call when a request ends. */
  touch(): void;
  stop(): void;
}

export function idleGc(opts: { quietMs?: number; busy: () => boolean; collect?: () => void }): IdleGc {
  const quietMs = opts.quietMs ?? 2000;
  const collect = opts.collect ?? (() => Bun.gc(true));
  let dirty = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const check = () => {
    timer = undefined;
    if (!dirty) return;
    if (opts.busy()) {
      arm();
      return;
    }
    dirty = false;
    collect();
  };
  const arm = () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(check, quietMs);
    (timer as { unref?: () => void }).unref?.();
  };
  return {
    touch() {
      dirty = true;
      arm();
    },
    stop() {
      if (timer) clearTimeout(timer);
      timer = undefined;
    },
  };
}
