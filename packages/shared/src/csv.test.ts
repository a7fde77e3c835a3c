import { describe, expect, it } from 'vitest';
import { csvCell, escapeFormula, FORMULA_TRIGGERS } from './csv.ts';

describe('escapeFormula', () => {
  it.each(FORMULA_TRIGGERS.map((t) => [JSON.stringify(t), t]))(
    'a multi-line cell starting with %s is escaped as surely as a one-line one',
    (_, trigger) => {
      const multi = `${trigger}HYPERLINK("http://evil.example","click")\nsecond line\r\nthird`;
      expect(escapeFormula(multi)).toBe(`'${multi}`);
      expect(escapeFormula(`${trigger}1+1`)).toBe(`'${trigger}1+1`);
    },
  );

  it('covers exactly = + - @ tab and carriage return', () => {
    expect([...FORMULA_TRIGGERS].sort()).toEqual(['\t', '\r', '+', '-', '=', '@'].sort());
  });

  it('leaves other text alone, including a trigger after the first character or line', () => {
    for (const text of ['Great coffee', 'ok\n=1+1', ' =1+1', "'=already", '', '5 stars — loved it', '\n=1'])
      expect(escapeFormula(text)).toBe(text);
  });
});

describe('csvCell', () => {
  it('keeps numbers and booleans, empties null, escapes text and JSON', () => {
    expect(csvCell(-5)).toBe(-5);
    expect(csvCell(4.5)).toBe(4.5);
    expect(csvCell(false)).toBe(false);
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
    expect(csvCell('-5')).toBe("'-5");
    expect(csvCell({ city: 'Hull' })).toBe('{"city":"Hull"}');
    expect(csvCell('@admin\nrest')).toBe("'@admin\nrest");
  });
});
