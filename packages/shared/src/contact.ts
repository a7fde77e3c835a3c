// Who a request went to, for the frequency cap and the contact history: one key per mailbox, so
// `Ana+1@gmail.com`, `a.n.a+2@googlemail.com` and `ana@gmail.com` count as the same customer. The
// key is only ever compared; the message still goes to the address as it was given.

/**
 * Mail providers that deliver `name+anything@` to `name@` (plus addressing): for them the tag is
 * not part of who the customer is. Other domains decide for themselves what their local parts
 * mean (a company may route `sales+eu@` elsewhere), so nothing is dropped there.
 */
export const PLUS_TAG_DOMAINS: ReadonlySet<string> = new Set([
  'gmail.com',
  'googlemail.com',
  'outlook.com',
  'hotmail.com',
  'live.com',
  'msn.com',
  'icloud.com',
  'me.com',
  'mac.com',
  'proton.me',
  'protonmail.com',
  'pm.me',
  'fastmail.com',
  'fastmail.fm',
]);

/** Gmail ignores dots in the local part, and googlemail.com is the same mailbox as gmail.com. */
const GMAIL_DOMAINS: ReadonlySet<string> = new Set(['gmail.com', 'googlemail.com']);

/** The domain as DNS sees it: lower case, IDN as punycode (`bücher.de` = `xn--bcher-kva.de`), no trailing dot. */
function domainKey(domain: string): string {
  const bare = domain.trim().replace(/\.$/, '').toLowerCase();
  try {
    return new URL(`http://${bare}`).hostname || bare;
  } catch {
    return bare;
  }
}

/**
 * The key an email address is counted under by the frequency cap and found under in the contact
 * history: the address lower-cased (as the send contract already stores it) and in one Unicode
 * form; the domain as DNS reads it; for providers that ignore it (`PLUS_TAG_DOMAINS`) the `+tag`
 * dropped; for Gmail also the dots of the local part, and googlemail.com counted as gmail.com.
 * Other domains' local parts are only lower-cased. Not an address to send to.
 */
export function emailContactKey(email: string): string {
  const address = email.trim().normalize('NFC');
  const at = address.lastIndexOf('@');
  if (at <= 0 || at === address.length - 1) return address.toLowerCase();
  let local = address.slice(0, at).toLowerCase();
  let domain = domainKey(address.slice(at + 1));
  if (PLUS_TAG_DOMAINS.has(domain)) {
    const plus = local.indexOf('+');
    if (plus > 0) local = local.slice(0, plus);
  }
  if (GMAIL_DOMAINS.has(domain)) {
    local = local.replace(/\./g, '') || local;
    domain = 'gmail.com';
  }
  return `${local}@${domain}`;
}
