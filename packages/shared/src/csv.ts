// Cells of a CSV file that a person opens in a spreadsheet. Text written by customers or staff
// (names, review text, replies, error messages) must never run there as a formula: Excel,
// LibreOffice and Google Sheets read a cell as one when its FIRST character is one of these,
// whatever follows — a newline included (OWASP, "CSV injection").

/** First characters that make a spreadsheet read a text cell as a formula. */
export const FORMULA_TRIGGERS: readonly string[] = ['=', '+', '-', '@', '\t', '\r'];

/**
 * A text cell made safe to open: one that begins with a formula trigger gets a leading
 * apostrophe, which spreadsheets read as "this is text". Judged on the first character alone,
 * so a cell with several lines is caught as surely as a one-line one.
 */
export function escapeFormula(text: string): string {
  return FORMULA_TRIGGERS.includes(text.charAt(0)) ? `'${text}` : text;
}

/**
 * Any value as a CSV cell: nothing for null/undefined, numbers and booleans as they are (a
 * negative number is a number, not a formula), objects as JSON, and every text escaped.
 */
export function csvCell(value: unknown): string | number | boolean {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' || typeof value === 'boolean') return value;
  return escapeFormula(typeof value === 'string' ? value : JSON.stringify(value));
}
