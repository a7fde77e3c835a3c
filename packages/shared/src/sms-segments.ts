// How many SMS segments a text costs, and in which encoding it travels (3GPP TS 23.038).
//
// A text made only of the GSM-7 default alphabet (and its extension table) travels as 7-bit
// septets: 160 fit in one SMS; a longer text is split into parts of 153 (7 septets go to the
// header that joins the parts). An extension character (`{ } [ ] \ ^ ~ | €` and form feed) is
// written as ESC + character: it costs two septets, and a part never ends between the two.
// One character outside the alphabet (an emoji, a curly quote, `ë`, any non-Latin script)
// sends the whole text as UCS-2: 70 UTF-16 code units in one SMS, parts of 67; a character
// written as two code units (most emoji) is never split between parts.
//
// Carriers and providers bill per segment; Twilio counts the same way.

/** The GSM-7 default alphabet, less ESC (0x1B), which only introduces an extension character. */
const GSM7_BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?' +
  '¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
/** The extension table: each costs ESC + itself, two septets. */
const GSM7_EXTENSION = '\f^{}\\[~]|€';

const BASIC = new Set(GSM7_BASIC);
const EXTENSION = new Set(GSM7_EXTENSION);

export type SmsEncoding = 'GSM-7' | 'UCS-2';

export const SMS_SINGLE_GSM7 = 160;
export const SMS_PART_GSM7 = 153;
export const SMS_SINGLE_UCS2 = 70;
export const SMS_PART_UCS2 = 67;

export type SmsSegmentInfo = {
  encoding: SmsEncoding;
  /** Septets (GSM-7) or UTF-16 code units (UCS-2) the text takes. */
  units: number;
  /** Parts the text is sent as: 0 for an empty text. */
  segments: number;
  /** Units one part holds: 160/153 for GSM-7, 70/67 for UCS-2 (single/multi-part). */
  perSegment: number;
  /** Units still free in the last part before another part is needed. */
  remaining: number;
  /** The characters (each once, in order of appearance) that made the text UCS-2. */
  unicodeCharacters: string[];
};

export function isGsm7Character(char: string): boolean {
  return BASIC.has(char) || EXTENSION.has(char);
}

/** Septets a GSM-7 character costs: 1, or 2 for the extension table. */
function septets(char: string): number {
  return EXTENSION.has(char) ? 2 : 1;
}

/** Splits `costs` into parts of `size` units, never splitting one character: the part count. */
function countParts(costs: number[], size: number): { parts: number; lastUsed: number } {
  let parts = 1;
  let used = 0;
  for (const cost of costs) {
    if (used + cost > size) {
      parts += 1;
      used = 0;
    }
    used += cost;
  }
  return { parts, lastUsed: used };
}

export function smsSegments(text: string): SmsSegmentInfo {
  const characters = Array.from(text); // code points: a surrogate pair stays whole
  const unicode: string[] = [];
  const seen = new Set<string>();
  for (const char of characters) {
    if (!isGsm7Character(char) && !seen.has(char)) {
      seen.add(char);
      unicode.push(char);
    }
  }
  const encoding: SmsEncoding = unicode.length === 0 ? 'GSM-7' : 'UCS-2';
  const costs = characters.map((char) => (encoding === 'GSM-7' ? septets(char) : char.length));
  const units = costs.reduce((sum, cost) => sum + cost, 0);
  const single = encoding === 'GSM-7' ? SMS_SINGLE_GSM7 : SMS_SINGLE_UCS2;
  const part = encoding === 'GSM-7' ? SMS_PART_GSM7 : SMS_PART_UCS2;
  if (units === 0) {
    return {
      encoding,
      units,
      segments: 0,
      perSegment: single,
      remaining: single,
      unicodeCharacters: unicode,
    };
  }
  if (units <= single) {
    return {
      encoding,
      units,
      segments: 1,
      perSegment: single,
      remaining: single - units,
      unicodeCharacters: unicode,
    };
  }
  const { parts, lastUsed } = countParts(costs, part);
  return {
    encoding,
    units,
    segments: parts,
    perSegment: part,
    remaining: part - lastUsed,
    unicodeCharacters: unicode,
  };
}
