// The tab's one QueryClient: server state read over HTTP (search, profile, the admin pages)
// and the data worker's event log. The workspace is not here (Dexie through the worker,
// useLiveQuery) and neither are ticks (Jotai). Only signed-in screens use it: the signed-in
// layout provides it (layout/BackendLayout.tsx), so the sign-in page does not load TanStack
// Query (issue 21's budget); the cache follows the session from the moment it exists.
import { onlineManager, QueryClient } from '@tanstack/react-query';
import { ApiError } from '../api';
import { getToken, onTokenChange } from '../session';
import { retryDelay, shouldRetry } from './retry';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // A 4xx is a refusal that asking again repeats; no answer or a 5xx is tried twice more,
      // 500 ms and 1 s apart, before the page shows the error (retry.ts).
      retry: (failureCount, error) => shouldRetry(failureCount, error instanceof ApiError ? error.status : undefined),
      retryDelay,
      // Requests go out whatever navigator.onLine says: it says online while the server is
      // down and the pages show ApiError's own message when no answer comes, instead of
      // waiting, paused, for an 'online' event.
      networkMode: 'always',
      // Back online, what is on screen and stale is asked again (with networkMode 'always'
      // TanStack leaves this off unless told).
      refetchOnReconnect: true,
      // Returning to the tab refreshes what is on screen only once stale (staleTime below):
      // a trader switching windows every few seconds costs nothing, while a list left open
      // for a while (the admin pages) is current again when looked at.
      refetchOnWindowFocus: true,
      // An answer is fresh for 30 s: going back to a page, or two components asking the same
      // (the search page and the board's search), use it instead of asking again. Nothing
      // here changes faster behind the user's back (the catalogue rolls once a day; the
      // profile changes by this user's own mutations, which update it).
      staleTime: 30_000,
    },
    mutations: {
      // A write is never repeated behind the user's back; the form shows the error and the
      // user decides. Sent even when navigator.onLine says offline, so the form does not
      // wait paused but shows the network error.
      retry: false,
      networkMode: 'always',
    },
  },
});

/**
 * The data worker's view of the server (issue 21) as TanStack's online state: back from an
 * outage the browser never saw (the server, a proxy), what is on screen is asked again
 * (refetchOnReconnect), as after a real network change.
 */
export function followConnection(online: boolean): void {
  if (onlineManager.isOnline() !== online) onlineManager.setOnline(online);
}

/** Drops every cached answer and pending mutation: they belonged to the session that ended. */
export function clearServerState(): void {
  queryClient.clear();
}

/**
 * Clears the cache whenever the session changes: sign-in, sign-out or a refused token in this
 * tab, or another tab of this browser signing in or out (the token is shared in
 * localStorage). The keys name no user, so one user's answers must not wait for the next.
 */
export function clearServerStateOnSessionChange(): () => void {
  let token = getToken();
  const follow = () => {
    const current = getToken();
    if (current === token) return;
    token = current;
    clearServerState();
  };
  const stopFollowing = onTokenChange(follow);
  window.addEventListener('storage', follow);
  return () => {
    stopFollowing();
    window.removeEventListener('storage', follow);
  };
}

clearServerStateOnSessionChange();
