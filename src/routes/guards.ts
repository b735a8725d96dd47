// Loaders that guard routes. The signed-in branch re-runs them on every navigation, so
// the token is checked before each one (spec section 2).
import { redirect, type LoaderFunctionArgs } from 'react-router-dom';
import type { PublicUser } from '../protocol/auth';
import { checkSession, clearSession } from '../data/session';
import { safeNext } from '../features/auth/sessionRoute';
import { signInUrl } from './signInRedirect';

export async function requireUser({ request }: LoaderFunctionArgs): Promise<PublicUser> {
  const user = await checkSession(request);
  if (!user) throw redirect(signInUrl(request));
  return user;
}

/**
 * Admin routes: a token whose user is not an admin is removed (spec section 5). Either way
 * sign-in brings an admin back to the page asked for.
 */
export async function requireAdmin({ request }: LoaderFunctionArgs): Promise<PublicUser> {
  const user = await checkSession(request);
  if (user?.role === 'admin') return user;
  clearSession();
  throw redirect(signInUrl(request));
}

/** The sign-in page sends a signed-in user on to where they were going. */
export async function redirectIfSignedIn({ request }: LoaderFunctionArgs): Promise<null> {
  const user = await checkSession(request);
  if (user) throw redirect(safeNext(new URL(request.url).searchParams.get('next')));
  return null;
}
