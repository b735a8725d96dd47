// Account administration from the shell, for real deployments:
//   npm run user -- add <username> [--role admin|user] [--first-name X] [--last-name Y]
//   npm run user -- passwd <username>
//   npm run user -- list
// Passwords are asked for on the terminal (hidden), or read from the first line of
// standard input when it is not a terminal, or taken from VISORES_PASSWORD. Never as an
// argument: arguments end up in shell history and process lists.
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { NewUser, ROLES } from '../../src/protocol/auth.js';
import { hashPassword } from '../auth/password.js';
import { loadConfig } from '../config.js';
import { migrateToLatest, openDatabase } from '../db/index.js';
import { usersRepo } from '../db/users.js';
import { describeZodError } from '../errors.js';
import { setPasswordAndEndSessions } from './accounts.js';

const USAGE = `Usage:
  npm run user -- add <username> [--role ${ROLES.join('|')}] [--first-name NAME] [--last-name NAME]
  npm run user -- passwd <username>
  npm run user -- list
The password is asked for, read from standard input, or taken from VISORES_PASSWORD.
The database is the one the server uses (DATABASE_URL, or the SQLite file under DATA_DIR).`;

class UsageError extends Error {}

async function readPassword(prompt: string): Promise<string> {
  const fromEnv = process.env.VISORES_PASSWORD;
  if (fromEnv) return fromEnv;
  if (!process.stdin.isTTY) {
    const rl = createInterface({ input: process.stdin });
    for await (const line of rl) {
      rl.close();
      return line;
    }
    throw new UsageError('No password on standard input');
  }
  return new Promise((resolve) => {
    const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: true });
    // Hide what is typed: echo nothing but the prompt itself.
    const output = rl as unknown as { _writeToOutput: (s: string) => void };
    output._writeToOutput = (s: string) => {
      if (s.includes(prompt)) process.stdout.write(prompt);
    };
    rl.question(prompt, (answer) => {
      rl.close();
      process.stdout.write('\n');
      resolve(answer);
    });
  });
}

async function run(argv: string[]): Promise<void> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      role: { type: 'string', default: 'user' },
      'first-name': { type: 'string', default: '' },
      'last-name': { type: 'string', default: '' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [command, username] = positionals;
  if (values.help || !command) throw new UsageError(USAGE);

  const config = loadConfig();
  const { db, location } = openDatabase(config);
  try {
    await migrateToLatest(db);
    const users = usersRepo(db, Date.now);
    if (command === 'list') {
      for (const u of await users.list()) {
        console.log(`${u.username}\t${u.role}${u.disabled ? '\t(disabled)' : ''}\t${[u.first_name, u.last_name].join(' ').trim()}`);
      }
      return;
    }
    if (!username) throw new UsageError(USAGE);
    if (command === 'add') {
      const password = await readPassword(`Password for ${username}: `);
      const parsed = NewUser.safeParse({
        username,
        password,
        role: values.role,
        firstName: values['first-name'],
        lastName: values['last-name'],
      });
      if (!parsed.success) throw new UsageError(describeZodError(parsed.error));
      const input = parsed.data;
      const created = await users.create({ ...input, passwordHash: await hashPassword(input.password) });
      if (!created) throw new UsageError(`User ${username} already exists`);
      console.log(`Created ${created.role} ${created.username} in ${location}`);
      return;
    }
    if (command === 'passwd') {
      const user = await users.findByUsername(username);
      if (!user) throw new UsageError(`No user ${username}`);
      const password = await readPassword(`New password for ${user.username}: `);
      const check = NewUser.shape.password.safeParse(password);
      if (!check.success) throw new UsageError(describeZodError(check.error));
      const ended = await setPasswordAndEndSessions(db, user, await hashPassword(password), {
        idleMs: config.sessionIdleMs,
        absoluteMs: config.sessionAbsoluteMs,
      });
      console.log(`Password of ${user.username} changed; ${ended} open session(s) ended`);
      return;
    }
    throw new UsageError(USAGE);
  } finally {
    await db.destroy();
  }
}

run(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(error instanceof UsageError ? 2 : 1);
});
