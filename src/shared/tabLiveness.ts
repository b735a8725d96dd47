// How the worker knows a tab is still there (workers/tabs.ts): each tab beats every
// TAB_HEARTBEAT_MS (data/worker.ts) and the worker drops a tab silent for TAB_TIMEOUT_MS.

/** Tabs beat every 10 s; hidden tabs' timers may be throttled to once a minute, hence the margin. */
export const TAB_HEARTBEAT_MS = 10_000;
export const TAB_TIMEOUT_MS = 90_000;
