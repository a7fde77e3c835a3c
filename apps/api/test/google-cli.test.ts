import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type FakeGoogle,
  googleSettings,
  startFakeGoogle,
} from '../../../test/support/fake-google/server.ts';
import { runCli, tempDir } from '../../../test/support/processes.ts';
import { ACCOUNT } from './support/google.ts';

// `google connect|status|disconnect` as an operator runs it: the token read from a file and never
// printed, refused with Google's words when Google refuses it, the connection kept sealed.

// Each command is a process of its own (seconds each on a busy machine).
describe('the google commands', { timeout: 120_000 }, () => {
  const tmp = tempDir('rd-google-cli-');
  let fake: FakeGoogle;
  let env: Record<string, string>;
  const cli = (args: string[]) => runCli('api', ['google', ...args], { env });

  beforeAll(async () => {
    fake = await startFakeGoogle();
    fake.reviewsOf(ACCOUNT, '7001');
    env = {
      DATABASE_PATH: path.join(tmp.dir, 'api.db'),
      SECRETS_KEY: randomBytes(32).toString('hex'),
      ...googleSettings(fake),
    };
    await runCli('api', ['business', 'create', 'corner', 'Corner Shop'], { env });
  });
  afterAll(async () => {
    await fake.close();
    tmp.cleanup();
  });

  it('connects with a token from a file (never printed), says how it stands, and disconnects', async () => {
    const token = fake.issueRefreshToken([`${ACCOUNT}/7001`]);
    const file = path.join(tmp.dir, 'token');
    writeFileSync(file, `${token}\n`, { mode: 0o600 });
    const connected = await cli([
      'connect',
      '--business',
      'corner',
      '--account',
      ACCOUNT,
      '--location',
      'locations/7001',
      '--refresh-token-file',
      file,
    ]);
    expect(connected).toContain(`accounts/${ACCOUNT}/locations/7001`);
    expect(connected).not.toContain(token);
    const status = await cli(['status', '--business', 'corner']);
    expect(status).toContain('connected, never synced');
    expect(status).not.toContain(token);
    expect(await cli(['disconnect', '--business', 'corner'])).toContain('Disconnected corner');
    expect(await cli(['status', '--business', 'corner'])).toContain('corner: not connected');
  });

  it('refuses a token Google refuses, with Google’s words, and a missing file or business', async () => {
    const file = path.join(tmp.dir, 'revoked');
    writeFileSync(file, '1//0gRevokedRefreshToken');
    const args = ['connect', '--business', 'corner', '--account', ACCOUNT, '--location', '7001'];
    await expect(cli([...args, '--refresh-token-file', file])).rejects.toThrow(/invalid_grant/);
    await expect(cli(args)).rejects.toThrow(/missing --refresh-token-file/);
    await expect(cli(['status', '--business', 'nowhere'])).rejects.toThrow(/No business "nowhere"/);
  });
});
