// Loading a path's screens ahead of the navigation (issue 21: every screen but sign-in is a
// route `lazy` chunk). intentPrefetch.ts calls it when a link is about to be followed.
import { matchRoutes, type RouteObject } from 'react-router-dom';

/**
 * Starts loading the lazy chunks of the routes `pathname` matches, each route once per `started`.
 * Failures are left to the navigation, which reports them on its error page; a route whose chunk
 * failed is tried again next time.
 */
export function prefetchRoute(routes: RouteObject[], pathname: string, started: WeakSet<RouteObject> = new WeakSet()): void {
  for (const { route } of matchRoutes(routes, pathname) ?? []) {
    if (typeof route.lazy !== 'function' || started.has(route)) continue;
    started.add(route);
    route.lazy().catch(() => started.delete(route));
  }
}
