// Where a signed-out visit of a signed-in screen goes: sign-in, with the way back. Used by the
// guards (guards.ts) on every navigation, and once before the router starts (signedOutStart).
import { matchRoutes, type RouteObject } from 'react-router-dom';
import { SESSION_ROUTE_ID } from '../features/auth/sessionRoute';
import { paths } from '../lib/paths';

/** Sign-in URL that brings the user back to where they were going. */
export function signInUrl(request: Request): string {
  const url = new URL(request.url);
  const next = url.pathname + url.search;
  return next === '/' ? paths['auth-signin']() : `${paths['auth-signin']()}?${new URLSearchParams({ next })}`;
}

/**
 * Where a start of the app at `href` must go before the router starts: a browser without a
 * session token opening a screen of the signed-in branch goes to sign-in, as the branch's guard
 * would send it. Answered before the router matches that screen, because the router loads a
 * matched route's `lazy` chunk beside its loaders, guard or not: a signed-out visit of `/` would
 * fetch the signed-in layout and Inicio for nothing (issue 21's budget for the sign-in route).
 * null: start where `href` says.
 */
export function signedOutStart(routes: RouteObject[], href: string, token: string | null): string | null {
  if (token) return null;
  const url = new URL(href);
  const matches = matchRoutes(routes, url.pathname);
  return matches?.some(({ route }) => route.id === SESSION_ROUTE_ID) ? signInUrl(new Request(url)) : null;
}
