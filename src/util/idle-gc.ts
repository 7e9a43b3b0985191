// Idle memory stays small (the brief; issue 15's soak): after a burst of traffic the JavaScript heap keeps the
// pages it grew to until a full collection runs, and an idle server allocates too little to trigger one. So once
// the server has been quiet for a moment after serving requests, one full collection returns those pages.
export interface IdleGc {
  /** Call when a request ends. */
  touch(): void;
  stop(): void;
}

export function idleGc(opts: { quietMs?: number; busy: () => boolean; collect?: () => void; now?: () => number }): IdleGc {
  const quietMs = opts.quietMs ?? 2000;
  const collect = opts.collect ?? (() => Bun.gc(true));
  const now = opts.now ?? (() => performance.now());
  let dirty = false;
  let last = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  // A request's end only notes the time: the one timer, when it fires, waits again for whatever is left of the
  // quiet period since the last end (re-arming a timer on every request cost a clearTimeout and a setTimeout each).
  const check = () => {
    timer = undefined;
    if (!dirty) return;
    const left = last + quietMs - now();
    if (left > 0) {
      arm(left);
      return;
    }
    if (opts.busy()) {
      arm(quietMs);
      return;
    }
    dirty = false;
    collect();
  };
  const arm = (ms: number) => {
    timer = setTimeout(check, ms);
    (timer as { unref?: () => void }).unref?.();
  };
  return {
    touch() {
      dirty = true;
      last = now();
      if (!timer) arm(quietMs);
    },
    stop() {
      if (timer) clearTimeout(timer);
      timer = undefined;
    },
  };
}
