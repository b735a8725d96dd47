// Reconnect delays: base × 2^attempt, capped (spec section 4: 500 ms doubled each attempt,
// at most 10 s). The market socket uses the same curve; the spec gives none for it.
export const BACKOFF_BASE_MS = 500;
export const BACKOFF_CAP_MS = 10_000;

export function backoffDelay(attempt: number, baseMs = BACKOFF_BASE_MS, capMs = BACKOFF_CAP_MS): number {
  return Math.min(capMs, baseMs * 2 ** Math.max(0, attempt));
}
