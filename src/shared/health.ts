// The server's health check as the app asks it (issue 21): HEAD /api/health, a 2xx within
// HEALTH_TIMEOUT_MS; while it gets no answer, asked again PROBE_FIRST_MS later, doubling up to
// PROBE_MAX_MS apart. The data worker asks it (workers/connectivity.ts, workers/online.ts), and
// so does the sign-in page before any worker (data/reachability.ts): one set of numbers for both.

export const HEALTH_TIMEOUT_MS = 5000;
export const PROBE_FIRST_MS = 1000;
export const PROBE_MAX_MS = 10_000;
