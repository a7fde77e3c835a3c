import { describe, expect, it } from 'vitest';
import { isPrivateAddress, resolveTarget } from './address.ts';

// Where a webhook may go: only public addresses, whatever spelling the address takes.

describe('webhook addresses', () => {
  it.each([
    '127.0.0.1',
    '127.1.2.3',
    '10.0.0.8',
    '172.16.5.4',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '::1',
    '::',
    'fe80::1',
    'fd00::1234',
    'fc00::1',
    '::ffff:127.0.0.1',
    '::ffff:10.1.2.3',
    'not-an-address',
  ])('refuses %s', (address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });

  it.each(['93.184.216.34', '8.8.8.8', '172.32.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])(
    'accepts %s',
    (address) => {
      expect(isPrivateAddress(address)).toBe(false);
    },
  );

  it('refuses a name that resolves to loopback, unless private addresses are allowed (tests, the demo)', async () => {
    const refused = await resolveTarget(new URL('https://localhost:8443/hook'), false);
    expect(refused.ok).toBe(false);
    expect(await resolveTarget(new URL('https://[::1]/hook'), false)).toMatchObject({ ok: false });
    expect(await resolveTarget(new URL('https://127.0.0.1/hook'), true)).toMatchObject({
      ok: true,
      address: '127.0.0.1',
    });
  });
});
