// The numbered migrations, in order. A new migration is a new numbered file added here;
// an applied one is never edited.
import type { Migration } from 'kysely';
import * as m0001 from './0001_users_and_sessions.js';
import * as m0002 from './0002_visores_and_folders.js';
import * as m0003 from './0003_login_attempts.js';
import * as m0004 from './0004_visor_version.js';
import * as m0005 from './0005_operator_log_indexes.js';
import * as m0006 from './0006_visor_tombstones.js';
import * as m0007 from './0007_clones_without_broker.js';
import * as m0008 from './0008_visor_stored_bytes.js';

export const migrations: Record<string, Migration> = {
  '0001_users_and_sessions': m0001,
  '0002_visores_and_folders': m0002,
  '0003_login_attempts': m0003,
  '0004_visor_version': m0004,
  '0005_operator_log_indexes': m0005,
  '0006_visor_tombstones': m0006,
  '0007_clones_without_broker': m0007,
  '0008_visor_stored_bytes': m0008,
};
