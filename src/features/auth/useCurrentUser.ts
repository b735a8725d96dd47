import { useRouteLoaderData } from 'react-router-dom';
import type { PublicUser } from '../../protocol/auth';
import { SESSION_ROUTE_ID } from './sessionRoute';

/** The signed-in user, as the session guard confirmed it for this navigation. */
export function useCurrentUser(): PublicUser {
  const user = useRouteLoaderData(SESSION_ROUTE_ID) as PublicUser | undefined;
  if (!user) throw new Error('useCurrentUser used outside the signed-in routes');
  return user;
}
