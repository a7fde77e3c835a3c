import { describe, expect, it } from 'vitest';
import { isGsm7Character, smsSegments } from './sms-segments.ts';

const a = (n: number) => 'a'.repeat(n);

describe('smsSegments', () => {
  it.each([
    // [label, text, encoding, units, segments]
    ['empty', '', 'GSM-7', 0, 0],
    ['one plain character', 'a', 'GSM-7', 1, 1],
    ['160 plain characters fill one SMS', a(160), 'GSM-7', 160, 1],
    ['161 need two parts of 153', a(161), 'GSM-7', 161, 2],
    ['306 fill two parts', a(306), 'GSM-7', 306, 2],
    ['307 need three', a(307), 'GSM-7', 307, 3],
    ['459 fill three', a(459), 'GSM-7', 459, 3],
    ['460 need four', a(460), 'GSM-7', 460, 4],
    [
      'accented letters of the GSM alphabet stay GSM-7',
      'Café à Zürich, señor Ñoño Øre Åse ß',
      'GSM-7',
      35,
      1,
    ],
    ['Greek capitals of the alphabet stay GSM-7', 'ΔΦΓΛΩΠΨΣΘΞ', 'GSM-7', 10, 1],
    ['line breaks stay GSM-7', 'a\nb\r\nc', 'GSM-7', 6, 1],
    ['80 euro signs are 160 septets: one SMS', '€'.repeat(80), 'GSM-7', 160, 1],
    ['81 euro signs are 162 septets: two', '€'.repeat(81), 'GSM-7', 162, 2],
    ['each extension character costs two septets', '{}[]~^|\\€', 'GSM-7', 18, 1],
    ['ë is not in the alphabet: UCS-2', 'Zoë', 'UCS-2', 3, 1],
    ['lower-case ç is not in the alphabet (capital Ç is)', 'ç', 'UCS-2', 1, 1],
    ['a curly apostrophe makes it UCS-2', 'We’d love to hear', 'UCS-2', 17, 1],
    ['a tab is not in the alphabet', 'a\tb', 'UCS-2', 3, 1],
    ['70 UCS-2 units fill one SMS', `ë${a(69)}`, 'UCS-2', 70, 1],
    ['71 need two parts of 67', `ë${a(70)}`, 'UCS-2', 71, 2],
    ['134 fill two parts', `ë${a(133)}`, 'UCS-2', 134, 2],
    ['135 need three', `ë${a(134)}`, 'UCS-2', 135, 3],
    ['an emoji is two UTF-16 units', '😀', 'UCS-2', 2, 1],
    ['35 emoji fill one SMS', '😀'.repeat(35), 'UCS-2', 70, 1],
    ['Cyrillic is UCS-2', 'Спасибо', 'UCS-2', 7, 1],
  ])('%s', (_label, text, encoding, units, segments) => {
    const info = smsSegments(text);
    expect(info.encoding).toBe(encoding);
    expect(info.units).toBe(units);
    expect(info.segments).toBe(segments);
  });

  it('never splits an escape sequence between parts', () => {
    // 306 septets would fit two parts of 153, but the € after 152 letters cannot straddle the
    // boundary: it moves whole to the second part, and the last letter needs a third.
    const text = `${a(152)}€${a(152)}`;
    expect(smsSegments(text).units).toBe(306);
    expect(smsSegments(text).segments).toBe(3);
    // With the € at the start of a part, 306 septets fit two parts.
    expect(smsSegments(`${a(153)}€${a(151)}`).segments).toBe(2);
  });

  it('never splits a surrogate pair between parts', () => {
    // 134 units would fit two parts of 67; the emoji after 66 letters moves whole to part two.
    const text = `${a(66)}😀${a(66)}`;
    expect(smsSegments(text).units).toBe(134);
    expect(smsSegments(text).segments).toBe(3);
    expect(smsSegments(`${a(67)}😀${a(65)}`).segments).toBe(2);
  });

  it('says how much room is left and which characters forced UCS-2', () => {
    expect(smsSegments(a(150))).toMatchObject({ perSegment: 160, remaining: 10 });
    expect(smsSegments(a(200))).toMatchObject({ perSegment: 153, remaining: 106 });
    expect(smsSegments('Zoë’s ë café ’')).toMatchObject({
      encoding: 'UCS-2',
      perSegment: 70,
      unicodeCharacters: ['ë', '’'],
    });
    expect(smsSegments('plain').unicodeCharacters).toEqual([]);
  });

  it('knows the alphabet and its extension table', () => {
    for (const char of ['@', '£', '¥', 'è', 'Ç', '¤', '¡', '§', '¿', 'à', '€', '{', '|']) {
      expect(isGsm7Character(char)).toBe(true);
    }
    for (const char of ['\u001b', '`', 'ç', 'ë', '’', '“', '😀', 'ä\u0308'.slice(1)]) {
      expect(isGsm7Character(char)).toBe(false);
    }
  });
});
