// The tab's end of the service worker (issue 21): registers /sw.js (vite-plugin-pwa's
// generateSW, registerType 'prompt') with workbox-window, finds a new build's worker waiting,
// offers it, and applies it only when the user accepts: then the new worker takes control
// (skip waiting) and every tab of the app that the old one controlled reloads on
// 'controllerchange', each after writing what it has in flight (beforeReload). Nothing reloads
// a tab unasked. Looks for a new build when the tab comes back to view or gets the focus (at
// most once a minute), when the network returns, and every hour.
//
// The waiting worker is watched on the registration itself, not through workbox-window's
// events: those stop after the first update another tab set off ('external' workers), and a
// tab open for days sees several deploys.
import { Workbox } from 'workbox-window';
import { flushPendingWrites } from './pendingWrites';

export const UPDATE_POLL_MS = 60 * 60 * 1000;
/** Least time between two checks set off by focus or visibility. */
export const UPDATE_RECHECK_MS = 60 * 1000;

/** How often a tab waiting to reload looks whether its open dialog closed. */
const DIALOG_CHECK_MS = 500;

/**
 * Before a reload the app asked for: an open dialog (a modal's form, half typed, in this or
 * another tab) is waited for until it closes; the focused field lets go (an edit that commits
 * on blur, like a section title in place, starts its write), its handlers run, then every
 * tracked write (pendingWrites.ts: the visor's draft) lands.
 */
export async function flushBeforeReload(): Promise<void> {
  while (document.querySelector('dialog[open]')) await new Promise((resolve) => setTimeout(resolve, DIALOG_CHECK_MS));
  if (document.activeElement instanceof HTMLElement) document.activeElement.blur();
  await new Promise((resolve) => setTimeout(resolve, 0));
  await flushPendingWrites();
}

export interface ServiceWorkerHooks {
  /** A new build is ready: offer it; `accept` applies it (once; later calls do nothing). */
  onUpdateReady(accept: () => void): void;
  /** Before this tab reloads onto the new build: write what is in flight. */
  beforeReload(): Promise<void>;
}

export interface ServiceWorkerControl {
  /** Asks the server for a new build now. */
  checkForUpdate(): Promise<void>;
}

export function startServiceWorker(hooks: ServiceWorkerHooks, scriptUrl = '/sw.js'): ServiceWorkerControl | null {
  if (!('serviceWorker' in navigator)) return null;
  const container = navigator.serviceWorker;
  const workbox = new Workbox(scriptUrl, { scope: '/' });
  // Loaded from the old worker's precache: the tab runs the old build, and a waiting worker is news.
  const loadedControlled = container.controller != null;
  let registration: ServiceWorkerRegistration | null = null;
  let offered = false;
  let accepted = false;
  let reloading = false;

  const reload = async () => {
    if (reloading) return;
    reloading = true;
    try {
      await hooks.beforeReload();
    } catch (error) {
      console.warn('Writing before the update reload failed', error);
    }
    location.reload();
  };

  // The new worker took over (this tab's Actualizar or another tab's): this tab runs the old build.
  container.addEventListener('controllerchange', () => {
    if (loadedControlled || accepted) void reload();
  });

  const offer = (apply: () => void) => {
    if (offered) return;
    offered = true;
    hooks.onUpdateReady(() => {
      if (accepted) return;
      accepted = true;
      apply();
    });
  };

  /** A worker waits: accepting it tells it to take over; the reload follows on controllerchange. */
  const offerWaiting = (worker: ServiceWorker) =>
    offer(() => {
      workbox.messageSkipWaiting();
      // A tab the old worker did not control gets no controllerchange: it reloads once the new one is active.
      if (!container.controller) {
        if (worker.state === 'activated') void reload();
        else worker.addEventListener('statechange', () => worker.state === 'activated' && void reload());
      }
    });

  const follow = (worker: ServiceWorker) => {
    const onState = () => {
      if (worker.state === 'installed' && registration?.waiting === worker) offerWaiting(worker);
      // Activated at once (no tab was controlled, so nothing made it wait): this tab, loaded
      // before it was found, still runs the old build.
      else if (worker.state === 'activated' && !container.controller) offer(() => void reload());
    };
    worker.addEventListener('statechange', onState);
    onState();
  };

  const checkForUpdate = async () => {
    try {
      await registration?.update();
    } catch {
      // Offline or the server is down: the next check tries again.
    }
  };

  let lastCheck = 0;
  const recheck = () => {
    if (document.visibilityState !== 'visible' || Date.now() - lastCheck < UPDATE_RECHECK_MS) return;
    lastCheck = Date.now();
    void checkForUpdate();
  };

  void workbox
    .register()
    .then((registered) => {
      if (!registered) return;
      registration = registered;
      lastCheck = Date.now();
      // Waiting since before this load: news only to a tab of the old build (one its worker served).
      if (registered.waiting && loadedControlled) offerWaiting(registered.waiting);
      registered.addEventListener('updatefound', () => {
        // The first worker ever (no active one before it) is no update: it serves the next load.
        if (registered.installing && registered.active) follow(registered.installing);
      });
      document.addEventListener('visibilitychange', recheck);
      window.addEventListener('focus', recheck);
      window.addEventListener('online', () => void checkForUpdate());
      setInterval(() => void checkForUpdate(), UPDATE_POLL_MS);
    })
    .catch((error: unknown) => console.warn('The service worker could not be registered', error));

  return { checkForUpdate };
}
