import { parseArgs } from 'node:util';
import { AppError } from '@review-desk/server/errors';
import { StartupError } from '@review-desk/server/startup-error';
import { createUserSchema, passwordSchema, ROLES, roleSchema } from '@review-desk/shared';
import { endSessionsOf } from './auth/sessions.ts';
import { createUserStore } from './auth/users.ts';
import { commandArgs, readSecretLine as readPassword, required, UsageError } from './cli-input.ts';
import { loadCliConfig } from './env.ts';
import { LOCATION_USAGE, runLocationCommand } from './locations/cli.ts';
import { openBffDatabase } from './store/database.ts';
import { moveToPostgres } from './store/migrate-to-postgres.ts';

// Dashboard users from the command line (BFF_DATABASE_URL or BFF_DATABASE_PATH selects the database):
//   user add --email E --role R      password read from stdin (prompted, hidden, on a terminal)
//   user passwd --email E            new password from stdin; ends the user's sessions
//   user role --email E --role R
//   user remove --email E
//   user list [--json]

const USAGE = `Usage: npm run cli -w apps/bff -- user|location <command> [options]

Commands:
  user add --email E --role ${ROLES.join('|')}   Create a user; the password is read from stdin.
  user passwd --email E                 Set a new password (from stdin); signs the user out everywhere.
  user role --email E --role R          Change a user's role.
  user remove --email E                 Remove a user (not the last owner).
  user list [--json]                    List users.
${LOCATION_USAGE}
  migrate-to-postgres [--to URL]        Copy every row of the SQLite database (BFF_DATABASE_PATH) into
                                        an empty PostgreSQL database (--to, or BFF_DATABASE_URL);
                                        counts are compared before it commits. Stop the BFF first.

Environment: BFF_DATABASE_URL (PostgreSQL) or BFF_DATABASE_PATH (default data/bff.db at the
repository root); for keys
BFF_SECRETS_KEY or BFF_SECRETS_KEY_FILE (default data/bff-secrets.key, made when missing).`;

async function migrateToPostgres(argv: string[]): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { to: { type: 'string' } } });
  const config = loadCliConfig();
  const to = values.to ?? (config.databaseUrl === config.databasePath ? undefined : config.databaseUrl);
  if (to === undefined)
    throw new UsageError('migrate-to-postgres: set BFF_DATABASE_URL or pass --to postgres://…');
  const report = await moveToPostgres({ sqlitePath: config.databasePath, postgresUrl: to });
  for (const { table, rows } of report.tables) process.stdout.write(`${table.padEnd(24)} ${rows} rows\n`);
  const total = report.tables.reduce((sum, t) => sum + t.rows, 0);
  process.stdout.write(
    `Copied ${total} rows in ${report.tables.length} tables; every count matched. Start the BFF with BFF_DATABASE_URL set.\n`,
  );
  return 0;
}

async function main(argv: string[]): Promise<number> {
  if (argv[0] === 'location' && !argv.includes('--help') && !argv.includes('-h'))
    return runLocationCommand(argv.slice(1));
  if (argv[0] === 'migrate-to-postgres') return migrateToPostgres(argv.slice(1));
  const { values, positionals } = commandArgs(argv, {
    email: { type: 'string' },
    role: { type: 'string' },
    json: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help || positionals.length === 0) {
    process.stdout.write(`${USAGE}\n`);
    return values.help ? 0 : 2;
  }
  const [group, command] = positionals;
  if (group !== 'user' || command === undefined)
    throw new UsageError(`unknown command: ${positionals.join(' ')}`);

  const db = await openBffDatabase(loadCliConfig());
  const users = createUserStore(db);
  try {
    switch (command) {
      case 'add': {
        const email = required(values.email, 'email');
        const role = roleSchema.safeParse(required(values.role, 'role'));
        if (!role.success) throw new UsageError(role.error.issues[0]?.message ?? 'invalid role');
        const password = await readPassword(`Password for ${email}: `);
        const input = createUserSchema.safeParse({ email, role: role.data, password });
        if (!input.success) throw new UsageError(input.error.issues.map((i) => i.message).join('; '));
        const user = await users.create(input.data);
        process.stdout.write(`Created ${user.role} ${user.email} (${user.id})\n`);
        return 0;
      }
      case 'passwd': {
        const user = await users.findByEmail(required(values.email, 'email'));
        if (!user) throw new AppError('user_not_found', `No user with the email ${values.email}.`);
        const password = passwordSchema.safeParse(await readPassword(`New password for ${user.email}: `));
        if (!password.success) throw new UsageError(password.error.issues[0]?.message ?? 'invalid password');
        await users.update(user.id, { password: password.data });
        await endSessionsOf(db, user.id);
        process.stdout.write(`Password changed for ${user.email}; their sessions were ended.\n`);
        return 0;
      }
      case 'role': {
        const user = await users.findByEmail(required(values.email, 'email'));
        if (!user) throw new AppError('user_not_found', `No user with the email ${values.email}.`);
        const role = roleSchema.safeParse(required(values.role, 'role'));
        if (!role.success) throw new UsageError(role.error.issues[0]?.message ?? 'invalid role');
        const updated = await users.update(user.id, { role: role.data });
        process.stdout.write(`${updated.email} is now ${updated.role}\n`);
        return 0;
      }
      case 'remove': {
        const user = await users.findByEmail(required(values.email, 'email'));
        if (!user) throw new AppError('user_not_found', `No user with the email ${values.email}.`);
        await users.remove(user.id);
        process.stdout.write(`Removed ${user.email}\n`);
        return 0;
      }
      case 'list': {
        const list = await users.list();
        if (values.json) {
          process.stdout.write(`${JSON.stringify(list)}\n`);
        } else if (list.length === 0) {
          process.stdout.write('No users.\n');
        } else {
          for (const u of list) {
            process.stdout.write(
              `${u.email.padEnd(32)} ${u.role.padEnd(8)} created ${u.createdAt}  last login ${u.lastLoginAt ?? 'never'}\n`,
            );
          }
        }
        return 0;
      }
      default:
        throw new UsageError(`unknown command: user ${command}`);
    }
  } finally {
    await db.close();
  }
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  if (error instanceof UsageError) {
    process.stderr.write(`bff cli: ${error.message}\n\n${USAGE}\n`);
    process.exitCode = 2;
  } else if (error instanceof AppError || error instanceof StartupError) {
    process.stderr.write(`bff cli: ${error.message}\n`);
    process.exitCode = 1;
  } else if ((error as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    process.stderr.write(`bff cli: ${(error as Error).message}\n\n${USAGE}\n`);
    process.exitCode = 2;
  } else {
    throw error;
  }
}
