import { systemClock } from '@review-desk/server/clock';
import { createLogSink } from '@review-desk/server/log';
import type { Config } from '../env.ts';
import { googleCommand } from '../reviews/google/cli.ts';
import { createGoogle } from '../reviews/google/service.ts';
import { createGoogleSync } from '../reviews/google/sync.ts';
import type { Store } from '../store/index.ts';

/** `google …` over the CLI's store: the same connection and scheduling as the server's. */
export async function googleCli(store: Store, config: Config, argv: string[], out: (line: string) => void) {
  // What the command does it says itself (stdout, or an error on stderr): no log lines.
  const logger = createLogSink({ service: 'api', level: 'silent' }).logger;
  const google = createGoogle({ db: store.db, config: config.google, logger, now: () => Date.now() });
  const sync = createGoogleSync({
    db: async () => store.db,
    store,
    google,
    clock: systemClock,
    logger,
    syncMs: config.google.syncMs,
  });
  await googleCommand(argv, { store, google, sync, now: Date.now() }, out);
}
