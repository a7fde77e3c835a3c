import {
  BULK_FILE_BYTES_MAX,
  BULK_ROWS_MAX,
  type BulkRowInput,
  checkBulkRow,
  type ListChannel,
} from '@review-desk/shared/bulk';
import { formErrors } from '@review-desk/shared/envelope';
import { CHANNEL_REQUIRES, type SendRequest } from '@review-desk/shared/send';
import {
  type CountryCode,
  getCountries,
  getCountryCallingCode,
  parsePhoneNumberFromString,
} from 'libphonenumber-js/max';
import Papa from 'papaparse';

// Sending to a list, before anything is sent: the file read with papaparse (any delimiter,
// quoted fields, a BOM, CRLF — what spreadsheets export), its columns mapped by header, and each
// row checked with the single send's own schema (shared bulk.ts → send.ts), so a row's errors
// are in the words the send form shows. Rows with the same phone or email as an earlier one are
// duplicates: the list sends to each contact once.

export const LIST_FIELDS = ['customerName', 'customerPhone', 'customerEmail'] as const;
export type ListField = (typeof LIST_FIELDS)[number];
/** Which column (index) holds each field; null: none. */
export type Mapping = Record<ListField, number | null>;

export const FIELD_LABELS: Record<ListField, string> = {
  customerName: 'Name',
  customerPhone: 'Phone',
  customerEmail: 'Email',
};

export type ParsedList = { headers: string[]; rows: string[][] };

const MB = (BULK_FILE_BYTES_MAX / (1024 * 1024)).toLocaleString('en');

/** The file's size, before reading it. */
export function checkFileSize(bytes: number): string | null {
  return bytes > BULK_FILE_BYTES_MAX
    ? `The file is larger than ${MB} MB: split it into smaller lists.`
    : null;
}

/** The file's text as a header row and data rows, or why it cannot be used. */
export function parseList(text: string): ParsedList | { error: string } {
  const result = Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), {
    skipEmptyLines: 'greedy',
    delimitersToGuess: [',', '\t', ';', '|'],
  });
  const data = result.data.filter((row) => Array.isArray(row) && row.some((cell) => cell.trim() !== ''));
  if (data.length === 0) return { error: 'The file has no rows.' };
  const headers = (data[0] as string[]).map((h) => h.trim());
  const rows = data.slice(1);
  if (rows.length === 0) return { error: 'The file has a header row but no customers below it.' };
  if (rows.length > BULK_ROWS_MAX)
    return {
      error: `The file has ${rows.length.toLocaleString('en')} rows; a list can have at most ${BULK_ROWS_MAX.toLocaleString('en')}. Split it into smaller lists.`,
    };
  return { headers, rows };
}

const GUESSES: Record<ListField, RegExp> = {
  customerName: /^(customer|client|full|contact)?[\s_-]*name$|^name$|^nom$|^nombre$/i,
  customerPhone: /phone|mobile|cell|tel|sms|number/i,
  customerEmail: /e-?mail|courriel|correo/i,
};

/** Each field's column, guessed from the headers; a field no header names stays unmapped. */
export function guessMapping(headers: readonly string[]): Mapping {
  const mapping: Mapping = { customerName: null, customerPhone: null, customerEmail: null };
  const taken = new Set<number>();
  for (const field of ['customerEmail', 'customerPhone', 'customerName'] as const) {
    const index = headers.findIndex((h, i) => !taken.has(i) && GUESSES[field].test(h.trim()));
    if (index !== -1) {
      mapping[field] = index;
      taken.add(index);
    }
  }
  return mapping;
}

/**
 * The channel a list's columns suggest: with a phone and an email column, a text to each row
 * with a phone and an email to the others (rows with one contact are sent, not refused).
 */
export function suggestedChannel(mapping: Mapping): ListChannel {
  if (mapping.customerPhone !== null && mapping.customerEmail !== null) return 'sms_or_email';
  if (mapping.customerEmail !== null) return 'email';
  return 'sms';
}

/** A phone as the send form composes it: national numbers in the list's default country. */
export function composePhone(country: CountryCode, input: string): string {
  const typed = input.trim();
  if (typed === '' || typed.startsWith('+')) return typed;
  const parsed = parsePhoneNumberFromString(typed, country);
  if (parsed) return parsed.number;
  const digits = typed.replace(/\D/g, '');
  return digits ? `+${getCountryCallingCode(country)}${digits}` : typed;
}

export type ValidRow = { line: number; body: SendRequest };
export type BadRow = { line: number; messages: string[]; cells: string };
export type DuplicateRow = { line: number; firstLine: number; contact: string };
export type Preflight = { valid: ValidRow[]; errors: BadRow[]; duplicates: DuplicateRow[] };

/**
 * Every row checked as the send form checks one send. `line`: the row's line in the file (the
 * header is line 1). Only the fields the channel uses are sent (as the form does).
 */
export function preflight(
  list: ParsedList,
  mapping: Mapping,
  channel: ListChannel,
  country: CountryCode,
): Preflight {
  // Text if there is a phone, else email: whichever contact the row has is used.
  const needs = channel === 'sms_or_email' ? { phone: true, email: true } : CHANNEL_REQUIRES[channel];
  const cell = (row: string[], field: ListField) => {
    const index = mapping[field];
    return index === null ? '' : (row[index] ?? '').trim();
  };
  const valid: ValidRow[] = [];
  const errors: BadRow[] = [];
  const duplicates: DuplicateRow[] = [];
  const seen = new Map<string, number>();
  list.rows.forEach((row, i) => {
    const line = i + 2;
    const input: BulkRowInput = {};
    const name = cell(row, 'customerName');
    if (name !== '') input.customerName = name;
    const phone = cell(row, 'customerPhone');
    if (needs.phone && (channel !== 'sms_or_email' || phone !== ''))
      input.customerPhone = composePhone(country, phone);
    if (needs.email) input.customerEmail = cell(row, 'customerEmail');
    const checked = checkBulkRow(input, channel);
    if (!checked.success) {
      const fields = formErrors(checked.error, [...LIST_FIELDS, 'channel'] as const);
      errors.push({
        line,
        messages: Object.values(fields).filter((m): m is string => typeof m === 'string'),
        cells: LIST_FIELDS.map((f) => cell(row, f))
          .filter((c) => c !== '')
          .join(', '),
      });
      return;
    }
    const body = checked.data;
    const contacts = [body.customerPhone, body.customerEmail].filter((c): c is string => !!c);
    const earlier = contacts.find((c) => seen.has(c));
    if (earlier !== undefined) {
      duplicates.push({ line, firstLine: seen.get(earlier) as number, contact: earlier });
      return;
    }
    for (const contact of contacts) seen.set(contact, line);
    valid.push({ line, body });
  });
  return { valid, errors, duplicates };
}

/** The contacts a row's recent-send check looks up. */
export function contactsOfRow(body: SendRequest): string[] {
  return [body.customerPhone, body.customerEmail].filter(
    (c): c is string => typeof c === 'string' && c !== '',
  );
}

/** Runs `work` over `items`, at most `limit` at a time, reporting how many are done. */
export async function eachLimited<T>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<void>,
  onProgress?: (done: number) => void,
): Promise<void> {
  let next = 0;
  let done = 0;
  const lane = async () => {
    while (next < items.length) {
      const item = items[next++] as T;
      await work(item);
      onProgress?.(++done);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}

export const numberFormat = (n: number) => n.toLocaleString('en');

/** Countries for the default of numbers written without +, by name, with their calling codes. */
export function countryOptions(): { value: string; label: string }[] {
  let names: Intl.DisplayNames | null = null;
  try {
    names = new Intl.DisplayNames(undefined, { type: 'region' });
  } catch {
    names = null;
  }
  return getCountries()
    .map((code) => ({ value: code, label: `${names?.of(code) ?? code} (+${getCountryCallingCode(code)})` }))
    .sort((a, b) => a.label.localeCompare(b.label));
}

/** The browser's region, the usual country of a list's numbers. */
export function guessCountry(): CountryCode {
  const known = new Set<string>(getCountries());
  for (const language of navigator.languages ?? [navigator.language]) {
    const region = language.split('-')[1]?.toUpperCase();
    if (region && known.has(region)) return region as CountryCode;
  }
  return 'US';
}
