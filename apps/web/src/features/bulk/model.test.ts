import { describe, expect, it } from 'vitest';
import {
  checkFileSize,
  guessMapping,
  type ParsedList,
  parseList,
  preflight,
  suggestedChannel,
} from './model.ts';

// Reading a customer list the way spreadsheets write it, and checking its rows as the send form does.

function parsed(text: string): ParsedList {
  const result = parseList(text);
  if ('error' in result) throw new Error(result.error);
  return result;
}

describe('parseList', () => {
  it('reads Excel’s CSV (BOM, CRLF, quoted commas and quotes), TSV and semicolon lists alike', () => {
    const excel = parsed(
      '\uFEFFName,Phone,Email\r\n"Lee, Ann","+1 415 555 2671","ann@example.com"\r\n"Bo ""B"" Li",,bo@example.com\r\n',
    );
    expect(excel.headers).toEqual(['Name', 'Phone', 'Email']);
    expect(excel.rows).toEqual([
      ['Lee, Ann', '+1 415 555 2671', 'ann@example.com'],
      ['Bo "B" Li', '', 'bo@example.com'],
    ]);
    expect(parsed('name\temail\nAnn\tann@example.com\n').rows).toEqual([['Ann', 'ann@example.com']]);
    expect(parsed('name;email\nAnn;ann@example.com\n').rows).toEqual([['Ann', 'ann@example.com']]);
  });

  it('says why a file cannot be used: empty, header only, too many rows, too large', () => {
    expect(parseList('')).toEqual({ error: 'The file has no rows.' });
    expect(parseList('name,email\n')).toMatchObject({ error: expect.stringContaining('no customers') });
    const big = `email\n${Array.from({ length: 10_001 }, (_, i) => `c${i}@example.com`).join('\n')}`;
    expect(parseList(big)).toMatchObject({ error: expect.stringContaining('at most 10,000') });
    expect(checkFileSize(3 * 1024 * 1024)).toContain('larger than 2 MB');
    expect(checkFileSize(1024)).toBeNull();
  });
});

describe('guessMapping', () => {
  it('maps usual headers and leaves unusual ones to the user', () => {
    expect(guessMapping(['Customer Name', 'Mobile', 'E-mail'])).toEqual({
      customerName: 0,
      customerPhone: 1,
      customerEmail: 2,
    });
    const odd = guessMapping(['who', 'where']);
    expect(odd).toEqual({ customerName: null, customerPhone: null, customerEmail: null });
    expect(suggestedChannel({ customerName: 0, customerPhone: 1, customerEmail: null })).toBe('sms');
    expect(suggestedChannel({ customerName: 0, customerPhone: null, customerEmail: 2 })).toBe('email');
    // Both columns: every row is sent by the contact it has, none refused for lacking the other.
    expect(suggestedChannel({ customerName: 0, customerPhone: 1, customerEmail: 2 })).toBe('sms_or_email');
  });
});

describe('preflight', () => {
  const list = parsed(
    [
      'name,phone,email',
      'Ann,(415) 555-2671,ann@example.com',
      'Bo,+44 20 7946 0958,bo@example.com',
      'Cy,12,cy@example.com',
      'Di,415 555 2671,di@example.com',
      'Ed,,',
    ].join('\n'),
  );
  const mapping = { customerName: 0, customerPhone: 1, customerEmail: 2 };

  it('checks each row with the send schema: national numbers in the chosen country, errors in the form’s words', () => {
    const result = preflight(list, mapping, 'sms', 'US');
    expect(result.valid.map((r) => [r.line, r.body.customerPhone])).toEqual([
      [2, '+14155552671'],
      [3, '+442079460958'],
    ]);
    expect(result.errors.map((r) => r.line)).toEqual([4, 6]);
    expect(result.errors[0]?.messages.join(' ')).toMatch(/^Phone number /);
    expect(result.errors[1]?.messages.join(' ')).toContain('Phone number is required to send by');
    // Line 5 is line 2's phone again: one send per contact.
    expect(result.duplicates).toEqual([{ line: 5, firstLine: 2, contact: '+14155552671' }]);
  });

  it('“text if there is a phone, else email”: a row with either contact is sent by it', () => {
    const mixed = parsed(
      [
        'name,phone,email',
        'Ann,415 555 2671,',
        'Bo,,bo@example.com',
        'Cy,415 555 2672,cy@example.com',
        'Ed,,',
      ].join('\n'),
    );
    const result = preflight(mixed, mapping, 'sms_or_email', 'US');
    expect(
      result.valid.map((r) => [r.line, r.body.channel, r.body.customerPhone, r.body.customerEmail]),
    ).toEqual([
      [2, 'sms', '+14155552671', undefined],
      [3, 'email', undefined, 'bo@example.com'],
      [4, 'sms', '+14155552672', undefined],
    ]);
    expect(result.errors.map((r) => r.line)).toEqual([5]);
  });

  it('uses only the fields the channel sends: by email, the phones do not matter', () => {
    const result = preflight(list, mapping, 'email', 'US');
    expect(result.valid.map((r) => r.line)).toEqual([2, 3, 4, 5]);
    expect(result.valid[0]?.body.customerPhone).toBeUndefined();
    expect(result.errors.map((r) => r.line)).toEqual([6]);
  });
});
