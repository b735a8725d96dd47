// Reconnect delays (spec sections 4 and 9): 500 ms doubled on each attempt, capped at 10 s;
// the caller resets the attempt counter when a connection opens. The positions socket uses
// it as the spec says; the market socket uses the same curve (the spec gives none for it).

export const BACKOFF_BASE_MS = 500;
export const BACKOFF_CAP_MS = 10_000;

/** Delay before reconnect attempt `attempt` (0 for the first retry after a close). */
export function backoffDelay(attempt: number, baseMs = BACKOFF_BASE_MS, capMs = BACKOFF_CAP_MS): number {
  const step = Math.max(0, Math.floor(attempt));
  // 2 ** step overflows to Infinity for huge counters, which the cap turns back into capMs.
  return Math.min(capMs, baseMs * 2 ** step);
}
