import * as setting from '@review-desk/server/config';
import { StartupError } from '@review-desk/server/startup-error';
import { AUTH_SCHEMES, type AuthScheme, locationNameSchema, locationSlugSchema } from '@review-desk/shared';
import { z } from 'zod';
import { unfinishedBulkJobs } from '../bulk/active.ts';
import { commandArgs, readSecretLine, required, UsageError } from '../cli-input.ts';
import { keyFromText, loadCliConfig, readKeyFile } from '../env.ts';
import { openBffDatabase } from '../store/database.ts';
import { createSecretBox, loadSecretsKey, refusingBox } from './secrets.ts';
import { createLocationStore } from './store.ts';

// Locations from the command line. A key comes from --key-file or stdin (prompted without echo
// on a terminal), is sealed before it is written, and is never printed.

export const LOCATION_USAGE = `  location add --slug S --name N [--upstream URL] [--auth-scheme ${AUTH_SCHEMES.join('|')}]
               [--origin O] [--key-file F]  Add a location; its key from the file or stdin.
                                        Without --upstream it uses UPSTREAM_URL. The first
                                        location replaces the one UPSTREAM_API_KEY implies.
  location list [--json]                List locations (never their keys).
  location rotate-key --slug S [--key-file F]   Replace a location's key (from the file or stdin).
  location remove --slug S              Remove a location, everyone's access to it and its
                                        records: send history, list sends, alerts (refused
                                        while a list send of it is not finished).`;

function parsed<T extends z.core.$ZodType>(schema: T, value: string, flag: string): z.output<T> {
  const result = z.safeParse(schema, value);
  if (!result.success) throw new UsageError(`--${flag}: ${result.error.issues[0]?.message ?? 'invalid'}`);
  return result.data;
}

async function readKey(file: string | undefined, slug: string): Promise<string> {
  if (file !== undefined) return readKeyFile(file, '--key-file');
  return keyFromText(await readSecretLine(`API key for ${slug}: `), 'the key on stdin', 'key');
}

export async function runLocationCommand(argv: string[]): Promise<number> {
  const { values, positionals } = commandArgs(argv, {
    slug: { type: 'string' },
    name: { type: 'string' },
    upstream: { type: 'string' },
    'auth-scheme': { type: 'string' },
    origin: { type: 'string' },
    'key-file': { type: 'string' },
    json: { type: 'boolean' },
  });
  const [command, ...extra] = positionals;
  if (command === undefined || extra.length > 0)
    throw new UsageError(`unknown command: location ${positionals.join(' ')}`);
  if (!['add', 'list', 'rotate-key', 'remove'].includes(command))
    throw new UsageError(`unknown command: location ${command}`);

  const config = loadCliConfig();
  const needsKey = command === 'add' || command === 'rotate-key';
  const secretsKey = needsKey ? loadSecretsKey(config.secrets, { create: true }) : null;
  const db = await openBffDatabase(config);
  try {
    const locations = createLocationStore(
      db,
      secretsKey ? createSecretBox(secretsKey) : refusingBox('no secrets key'),
    );
    const out = (line: string) => process.stdout.write(`${line}\n`);
    switch (command) {
      case 'add': {
        const slug = parsed(locationSlugSchema, required(values.slug, 'slug'), 'slug');
        const name = parsed(locationNameSchema, required(values.name, 'name'), 'name');
        const upstream =
          values.upstream === undefined ? null : parsed(setting.httpUrl(), values.upstream, 'upstream');
        const origin = values.origin === undefined ? null : parsed(setting.origin(), values.origin, 'origin');
        const scheme = parsed(
          setting.oneOf(AUTH_SCHEMES),
          values['auth-scheme'] ?? 'x-api-key',
          'auth-scheme',
        );
        const key = await readKey(values['key-file'], slug);
        const added = await locations.add({
          slug,
          name,
          upstreamUrl: upstream?.href ?? null,
          origin,
          authScheme: scheme as AuthScheme,
          key,
        });
        out(
          `Added location ${added.slug} (${added.name}); its key is stored sealed. A running dashboard server uses it within 2 seconds.`,
        );
        return 0;
      }
      case 'rotate-key': {
        const slug = parsed(locationSlugSchema, required(values.slug, 'slug'), 'slug');
        if (!(await locations.get(slug))) return notFound(slug);
        await locations.rotateKey(slug, await readKey(values['key-file'], slug));
        out(`Replaced the key of ${slug}.`);
        return 0;
      }
      case 'remove': {
        const slug = parsed(locationSlugSchema, required(values.slug, 'slug'), 'slug');
        const location = await locations.get(slug);
        if (!location) return notFound(slug);
        const unfinished = await unfinishedBulkJobs(db, location.id);
        if (unfinished > 0) {
          throw new StartupError(
            `${slug} has ${unfinished} list send${unfinished === 1 ? '' : 's'} not finished (running or paused): cancel ${unfinished === 1 ? 'it' : 'them'} on its Send to a list page first.`,
          );
        }
        await locations.remove(slug);
        out(`Removed location ${slug}, everyone's access to it, its send history, list sends and alerts.`);
        return 0;
      }
      default: {
        const list = await locations.list();
        if (values.json) out(JSON.stringify(list));
        else if (list.length === 0)
          out('No locations: the BFF serves UPSTREAM_URL with UPSTREAM_API_KEY as its one location.');
        else
          for (const l of list)
            out(
              `${l.slug.padEnd(20)} ${l.name.padEnd(24)} ${(l.upstreamUrl ?? '(UPSTREAM_URL)').padEnd(32)} ${l.authScheme.padEnd(9)} ${l.origin ?? '(upstream origin)'}`,
            );
        return 0;
      }
    }
  } finally {
    await db.close();
  }
}

function notFound(slug: string): number {
  process.stderr.write(`bff cli: No location with the slug ${slug}.\n`);
  return 1;
}
