// A customer's name goes into the SMS or email that carries the business's name, and onto the
// customer page: it must read as a name and nothing else (docs/api.md, "Design choices", Send
// body). So:
// - what cannot be seen or reorders what can is removed: control characters (a line break or
//   tab becomes a space first, so "Ann\nLee" stays two words), bidirectional embeddings,
//   overrides, isolates and marks (they can make "moc.live" show as "evil.com"), and the
//   zero-width characters that can hide a word break; runs of spaces become one;
// - a name that holds a web address, or anything a phone or mail app would turn into a link, is
//   refused: a scheme (`https://`, `http:\\`), `www.`, an IPv4 address, or a domain-like word
//   (`evil.com`, `evil.com/x`, `ana@evil.com`). That also refuses "Ana.Smith"; the message says
//   to write a space after the dot. ZWJ/ZWNJ stay in the name (scripts and emoji need them) but
//   are ignored, with full-width letters and dots, when looking for an address.

/** A line, paragraph or tab break: becomes a space. */
const BREAKS = /[\t\n\v\f\r\u0085\u2028\u2029]/gu;
/** Invisible: controls, bidi controls, zero-width space, word joiner and invisible operators, BOM, soft hyphen, Mongolian vowel separator. */
const INVISIBLE = /[\p{Cc}\p{Bidi_Control}\u200b\u2060-\u2064\ufeff\u00ad\u180e]/gu;

/** The name as it will be written into messages: visible characters only, single spaces, trimmed. */
export function cleanCustomerName(name: string): string {
  return name.replace(BREAKS, ' ').replace(INVISIBLE, '').replace(/\s+/gu, ' ').trim();
}

// Each pattern starts only where a word starts and the domain test works word by word, so the
// time taken grows with the length of the name, never with its square (a hostile 16 KB name).
const SCHEME = /(?:^|[^a-z0-9+.-])[a-z][a-z0-9+.-]*:[\\/]{2}/i;
const WWW = /(?:^|[^\p{L}\p{N}])www\d{0,3}\./iu;
/** What a word of an address is made of; anything else (space, `@`, `/`, `:`…) ends it. */
const NOT_IN_WORD = /[^\p{L}\p{M}\p{N}.-]+/u;
const TOP_LEVEL = /^(?:\p{L}{2,}|xn--[a-z0-9-]+)$/iu;
const OCTET = /^\d{1,3}$/;

/**
 * A word that reads as a host: labels joined by dots, the last one two or more letters (or
 * punycode) — `evil.com`, `a.b.co`, `пример.рф` — or four numbers, an IPv4 address.
 */
function isHostLike(word: string): boolean {
  const labels = word.replace(/\.$/, '').split('.'); // `evil.com.` is evil.com
  if (labels.length < 2 || labels.some((label) => label === '')) return false;
  if (TOP_LEVEL.test(labels.at(-1)!)) return true;
  return labels.length === 4 && labels.every((label) => OCTET.test(label));
}

/** Whether a name holds a web address or a word a messaging app would make into a link. */
export function holdsWebAddress(name: string): boolean {
  const seen = name
    .normalize('NFKC') // full-width ｅｖｉｌ．ｃｏｍ → evil.com
    .replace(/[\u200c\u200d]/g, '')
    .replace(/[\u3002\uff61]/g, '.'); // ideographic full stops, which browsers read as dots
  return SCHEME.test(seen) || WWW.test(seen) || seen.split(NOT_IN_WORD).some(isHostLike);
}

export const CUSTOMER_NAME_WEB_ADDRESS_MESSAGE =
  'Customer name must not contain a web address or anything that looks like one (such as example.com): write the name only, with a space after any dot';
