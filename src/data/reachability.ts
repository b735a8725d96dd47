// Whether this tab reaches the server by itself (issue 21), for the sign-in page, which runs
// before any data worker (the worker decides for the signed-in screens: data/offline.ts). Two
// signs: the browser's network (navigator.onLine, which data/offline.ts reads too) and the
// server's health (HEAD /api/health, with the worker's numbers: shared/health.ts). The health is
// asked when a screen starts following it and after a request of the tab got no answer
// (checkServer); while it gets none it is asked again 1 s after, doubling to 10 s, and at once
// when the browser's network comes back. Small on purpose, with no import of its own beyond
// React, the settings and those numbers: it is part of the sign-in route's JavaScript (≤ 150 KB
// gzip).
import { useSyncExternalStore } from 'react';
import { HEALTH_TIMEOUT_MS, PROBE_FIRST_MS, PROBE_MAX_MS } from '../shared/health';
import { settings } from '../shared/settings';

/** The title of a control that needs the server, while it cannot be reached. */
export const NEEDS_SERVER_REASON = 'Sin conexión: esta acción necesita el servidor';

// ------------------------------------------------------------------ the browser's network

/** Since when the browser says it has no network (epoch ms), or null while it has one. */
let browserOfflineSince: number | null = typeof navigator !== 'undefined' && !navigator.onLine ? Date.now() : null;

function followBrowser(onChange: () => void): () => void {
  const changed = () => {
    browserOfflineSince = navigator.onLine ? null : (browserOfflineSince ?? Date.now());
    onChange();
  };
  window.addEventListener('online', changed);
  window.addEventListener('offline', changed);
  return () => {
    window.removeEventListener('online', changed);
    window.removeEventListener('offline', changed);
  };
}

/** Since when the browser has had no network (epoch ms), or null while it has one. */
export function useBrowserOfflineSince(): number | null {
  return useSyncExternalStore(
    followBrowser,
    () => browserOfflineSince,
    () => null,
  );
}

// ------------------------------------------------------------------ the server's health

/** False once the health check got no answer, until one answers. */
let serverAnswers = true;
const followers = new Set<() => void>();
let checking = false;
let timer: ReturnType<typeof setTimeout> | undefined;
let delay = PROBE_FIRST_MS;

function setAnswers(answers: boolean): void {
  if (answers) delay = PROBE_FIRST_MS;
  if (answers === serverAnswers) return;
  serverAnswers = answers;
  for (const follower of followers) follower();
}

/** Asks the server's health now (one at a time); with no answer, again later while a screen follows it. */
export async function checkServer(): Promise<void> {
  if (checking) return;
  checking = true;
  clearTimeout(timer);
  timer = undefined;
  let answers = false;
  try {
    const response = await fetch(`${settings.apiBase}/health`, { method: 'HEAD', cache: 'no-store', signal: AbortSignal.timeout(HEALTH_TIMEOUT_MS) });
    answers = response.ok;
  } catch {
    // No network, refused, or out of time.
  }
  checking = false;
  setAnswers(answers);
  if (!answers && followers.size > 0 && timer === undefined) {
    timer = setTimeout(() => void checkServer(), delay);
    delay = Math.min(delay * 2, PROBE_MAX_MS);
  }
}

function followServer(onChange: () => void): () => void {
  const stopBrowser = followBrowser(() => {
    // The network is back: the server is asked at once rather than at the next probe.
    if (navigator.onLine && !serverAnswers) void checkServer();
    onChange();
  });
  followers.add(onChange);
  if (followers.size === 1) void checkServer();
  return () => {
    stopBrowser();
    followers.delete(onChange);
    if (followers.size > 0) return;
    clearTimeout(timer);
    timer = undefined;
  };
}

const reachable = () => serverAnswers && browserOfflineSince == null;

/**
 * NEEDS_SERVER_REASON while this tab, by itself, cannot reach the server (no network, or its
 * health does not answer), else null: for a control's `disabled` and `title`, as
 * data/offline.ts's useNeedsServerReason on the signed-in screens.
 */
export function useTabNeedsServerReason(): string | null {
  const online = useSyncExternalStore(followServer, reachable, () => true);
  return online ? null : NEEDS_SERVER_REASON;
}
