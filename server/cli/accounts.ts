// What `npm run user` does to the database, apart from the terminal (user.ts), so the API tests
// run the very same code against a server's database.
import type { Db } from '../db/index.js';
import type { UserRow } from '../db/schema.js';
import { sessionsRepo, type SessionPolicy } from '../db/sessions.js';
import { usersRepo } from '../db/users.js';

/**
 * Sets a user's password hash and ends every session of theirs; answers how many ended. The
 * CLI is no server: it tells none of them. Each server process finds the ended sessions in its
 * next session sweep (about a second) and closes their sockets and broker sessions
 * (server/sessionEnds.ts).
 */
export async function setPasswordAndEndSessions(
  db: Db,
  user: UserRow,
  passwordHash: string,
  policy: SessionPolicy,
  now: () => number = Date.now,
): Promise<number> {
  await usersRepo(db, now).setPasswordHash(user.id, passwordHash);
  const ended = await sessionsRepo(db, now, policy).revokeAllOfUser(user.id);
  return ended.length;
}
