// A client refused for going too fast (429), or for a body nested past the limit (400, which
// costs the client nothing to send again), gets its answer after a pause. A client that does
// not wait for Retry-After (a flood of sign-ins, a script listing visores in a loop) would
// otherwise turn each cheap refusal into the next request at once: hundreds a second from a
// few connections, on the same cores that answer everyone else. Held, each of its connections
// makes one request per pause. The pause never outlasts the Retry-After it is answered with,
// and only so many answers are held at once: past that they go out at once, so holding can
// never pile up sockets and timers without bound.

/** Answers held at most at once; past it a refusal is answered without a pause. */
export const MAX_HELD_REFUSALS = 512;

export interface RefusalHold {
  /**
   * Resolves when the refusal may be answered: after the pause (never past the Retry-After it is
   * answered with, when it has one), or at once when the holds are full.
   */
  hold(retryAfterSeconds?: number): Promise<void>;
  /** Answers held right now. */
  held(): number;
}

export function createRefusalHold(pauseMs: number, maxHeld = MAX_HELD_REFUSALS): RefusalHold {
  let held = 0;
  return {
    async hold(retryAfterSeconds = Number.POSITIVE_INFINITY) {
      const ms = Math.min(pauseMs, retryAfterSeconds * 1000);
      if (ms <= 0 || held >= maxHeld) return;
      held += 1;
      try {
        await new Promise<void>((resolve) => setTimeout(resolve, ms));
      } finally {
        held -= 1;
      }
    },
    held: () => held,
  };
}
