import { describe, expect, it } from 'vitest';
import { cleanCustomerName, holdsWebAddress } from './customer-name.ts';

describe('cleanCustomerName', () => {
  it.each([
    ['a plain name', 'Ann Lee', 'Ann Lee'],
    ['line breaks and tabs become a space', 'Ann\r\nLee\tJr', 'Ann Lee Jr'],
    ['Unicode line and paragraph separators too', 'Ann\u2028Lee\u2029Jr', 'Ann Lee Jr'],
    ['C0 controls and DEL removed', 'A\u0000n\u0007n\u001b\u007f', 'Ann'],
    ['C1 controls removed', 'An\u0080n\u009b', 'Ann'],
    [
      'right-to-left override removed (it can show "moc.live" as "evil.com")',
      '\u202eAnn Lee\u202c',
      'Ann Lee',
    ],
    ['embeddings removed', '\u202aAnn\u202b Lee\u202c', 'Ann Lee'],
    ['isolates removed', '\u2066Ann\u2069 \u2067Lee\u2069 \u2068Jr\u2069', 'Ann Lee Jr'],
    ['directional marks removed', '\u200eAnn\u200f Lee\u061c', 'Ann Lee'],
    ['zero-width space, word joiner, BOM, soft hyphen removed', 'A\u200bn\u2060n\ufeff Le\u00ade', 'Ann Lee'],
    ['runs of spaces (any kind) become one; trimmed', '  Ann \u00a0\u3000 Lee  ', 'Ann Lee'],
    ['ZWNJ kept: scripts need it', 'می\u200cخواهم', 'می\u200cخواهم'],
    ['ZWJ kept: emoji sequences need it', 'Ann 👩\u200d💻', 'Ann 👩\u200d💻'],
    ['Arabic, Hebrew and CJK names kept as written', 'سارة כהן 王芳', 'سارة כהן 王芳'],
  ])('%s', (_name, input, expected) => {
    expect(cleanCustomerName(input)).toBe(expected);
  });
});

/** Names that hold a web address (refused). */
const WEB_ADDRESSES = [
  'https://evil.example',
  'Ann HTTP://EVIL.EXAMPLE',
  'Ann javascript://x',
  'Ann http:\\\\evil.example',
  'www.evil',
  'Ann WWW.evil.example',
  'evil.com',
  'Visit evil.com/x',
  'Ann evil.co.uk?x=1',
  'ann@evil.com',
  'Ann sub.evil-site.shop',
  'Ann 203.0.113.7',
  'Ann 203.0.113.7:8080/x',
  'Ann xn--80ak6aa92e.com',
  'Ann пример.рф',
  'Ann ｅｖｉｌ．ｃｏｍ',
  'Ann evil。com',
  'Ann evil\u200d.com',
  'Ana.Smith',
];

/** Names that only look a little like one (accepted). */
const PLAIN_NAMES = [
  'Ann Lee',
  'J.R. Smith',
  'J. R. R. Tolkien',
  "Seán O'Brien-Núñez",
  'Dr. Who',
  'St. John',
  'Ann & Co.',
  'Ann (table 4)',
  'Ann 1.5',
  'Version 2.0 Ann',
  'Ann :) //',
  'سارة כהן 王芳',
  'Ann @ the bar',
  '=SUM(1;2) Ann',
];

describe('holdsWebAddress', () => {
  it.each([
    ...WEB_ADDRESSES.map((name) => ({ name, holds: true, verdict: 'refuses' })),
    ...PLAIN_NAMES.map((name) => ({ name, holds: false, verdict: 'accepts' })),
  ])('$verdict $name', ({ name, holds }) => {
    expect(holdsWebAddress(name)).toBe(holds);
  });
});
