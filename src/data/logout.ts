// Logout from the user menu (spec section 2), online or not. Everything of the user leaves this
// browser at once: the token (session.ts, which tells the server now or, offline, once it
// answers again), the data worker's memory and its copy of the workspace in Dexie (it wipes
// when the token changes; this waits for it), the same records wiped from the tab too, the
// cached server answers and the quotes and positions in the tab's memory, and any answer of
// /api a service worker's cache might hold (none is put there: vite.config.ts). Then the app
// goes to sign-in.
import { db, wipeUserData } from '../shared/db';
import { clearServerState } from './queries/client';
import { signOut } from './session';
import { forgetSessionState } from './store';
import { workerSessionSynced } from './worker';

/** How long the sign-out waits for the data worker's wipe before wiping from the tab alone. */
const WORKER_WIPE_WAIT_MS = 5000;
/**
 * How long it waits, after the wipes, for the server to hear of it: online, the token is refused
 * by the time sign-in shows; a network that drops packets does not hold the sign-out up.
 */
const SERVER_WAIT_MS = 2000;

/** `work`, or nothing once `ms` have passed. */
async function atMost(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([work, new Promise((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}

/** Answers of /api in the Cache Storage of this origin: none is meant to be there; gone anyway. */
async function dropCachedApiAnswers(): Promise<void> {
  if (typeof caches === 'undefined') return;
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    for (const request of await cache.keys()) {
      if (/^\/api(?:\/|$)/i.test(new URL(request.url).pathname)) await cache.delete(request);
    }
  }
}

/** Signs out and wipes the user's data from this browser; resolves once it is gone. */
export async function logOut(logText: string): Promise<void> {
  const { userId, told } = signOut(logText);
  clearServerState();
  forgetSessionState();
  await atMost(workerSessionSynced(), WORKER_WIPE_WAIT_MS);
  const wipes: Promise<void>[] = [dropCachedApiAnswers()];
  if (userId) wipes.push(wipeUserData(db, userId));
  for (const result of await Promise.allSettled(wipes)) {
    if (result.status === 'rejected') console.error('The sign-out could not wipe part of the local data', result.reason);
  }
  await atMost(told, SERVER_WAIT_MS);
}
