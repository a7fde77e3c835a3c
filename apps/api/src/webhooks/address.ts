import { lookup as lookupCallback } from 'node:dns';
import { lookup } from 'node:dns/promises';
import { BlockList, isIP, type LookupFunction } from 'node:net';

// Where a webhook may go (docs/api.md, "Webhooks"): an https URL whose host resolves only to
// public addresses. Private, loopback, link-local, shared (CGNAT), unspecified, multicast and
// reserved ranges are refused — checked when the endpoint is saved and again at every delivery,
// which connects to the address it checked (a name that changes its answer in between cannot
// reach inside). WEBHOOKS_ALLOW_PRIVATE=1 lifts the check for tests and the demo only.

const BLOCKED = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  BLOCKED.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  BLOCKED.addSubnet(net, prefix, 'ipv6');

/** Whether an address is one a webhook must not reach (IPv4-mapped IPv6 checked as IPv4). */
export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return BLOCKED.check(mapped[1]!, 'ipv4');
  const family = isIP(address);
  if (family === 0) return true;
  return BLOCKED.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

export type Resolved = { ok: true; address: string; family: 4 | 6 } | { ok: false; reason: string };

/**
 * The address to connect to for a URL's host: the first it resolves to, when every address it
 * resolves to may be reached; else why not. `allowPrivate` (tests, the demo) takes any address.
 */
export async function resolveTarget(url: URL, allowPrivate: boolean): Promise<Resolved> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: { address: string; family: number }[];
  try {
    addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : await lookup(host, { all: true });
  } catch {
    return { ok: false, reason: `The name ${host} could not be resolved.` };
  }
  if (addresses.length === 0) return { ok: false, reason: `The name ${host} has no address.` };
  if (!allowPrivate && addresses.some((a) => isPrivateAddress(a.address)))
    return { ok: false, reason: privateReason(host) };
  const first = addresses[0]!;
  return { ok: true, address: first.address, family: first.family === 6 ? 6 : 4 };
}

const privateReason = (host: string) =>
  `${host} is, or resolves to, a private, loopback or link-local address: webhooks go only to public addresses.`;

/**
 * The lookup every new connection to a receiver makes (node:net's `lookup` option): the name's
 * addresses, refused when one of them may not be reached — so the address connected to is the
 * one checked, however the name's answer changes. (An address in the URL itself is checked by
 * `literalRefusal`: no lookup is made for it.)
 */
export function checkedLookup(allowPrivate: boolean): LookupFunction {
  return ((host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    lookupCallback(host, { all: true }, (error, addresses) => {
      if (error) return callback(error);
      if (addresses.length === 0) return callback(new Error(`The name ${host} has no address.`));
      if (!allowPrivate && addresses.some((a) => isPrivateAddress(a.address)))
        return callback(new Error(privateReason(host)));
      if (options.all) return callback(null, addresses);
      return callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  }) as LookupFunction;
}

/** Why an address written in the URL itself may not be reached; null when it may. */
export function literalRefusal(url: URL, allowPrivate: boolean): string | null {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return isIP(host) && !allowPrivate && isPrivateAddress(host) ? privateReason(host) : null;
}
