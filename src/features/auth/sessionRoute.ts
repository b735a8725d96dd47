// What the signed-in branch of the route table and the auth feature agree on: the branch's
// id (its loader data is the current user) and where sign-in leads afterwards.
import { paths } from '../../lib/paths';

/** Id of the signed-in branch of the route table; its loader data is the current user. */
export const SESSION_ROUTE_ID = 'session';

/** Only paths of this app are followed after sign-in (no open redirects). */
export function safeNext(next: string | null): string {
  return next && next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/auth/') ? next : paths.home();
}
