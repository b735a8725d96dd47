// Intent prefetch of the route table's lazy chunks. When the pointer rests on a link of the app,
// or a link gets the focus or a touch, the chunks of the screens its path leads to start loading
// (prefetchRoute.ts), so the click that follows usually finds them there. One listener on the
// document serves every link, in the sidebar, the header, Inicio's cards and the admin pages
// alike; nothing in the features knows of it.
import type { RouteObject } from 'react-router-dom';
import { prefetchRoute } from './prefetchRoute';

/** The same-origin path a link event is about, or null when the event is not on such a link. */
function linkPathOf(target: EventTarget | null, origin: string): string | null {
  const link = target instanceof Element ? target.closest('a[href]') : null;
  if (!(link instanceof HTMLAnchorElement) || link.origin !== origin || link.target === '_blank' || link.hasAttribute('download')) return null;
  return link.pathname;
}

/** Listens on `root` for the intent to follow a link (hover, focus, touch) and prefetches its screens. */
export function installIntentPrefetch(routes: RouteObject[], root: Document = document): () => void {
  const started = new WeakSet<RouteObject>();
  const origin = root.location?.origin ?? '';
  const onIntent = (event: Event) => {
    const path = linkPathOf(event.target, origin);
    if (path != null) prefetchRoute(routes, path, started);
  };
  const events = ['pointerover', 'focusin', 'touchstart'] as const;
  for (const type of events) root.addEventListener(type, onIntent, { passive: true });
  return () => {
    for (const type of events) root.removeEventListener(type, onIntent);
  };
}
