import { csvCell } from '@review-desk/shared/csv';

// The dashboard's CSV files: written by papaparse (quoting, embedded quotes and newlines handled
// by a real writer; loaded only when a file is made), every cell through the shared rule that
// keeps text from running as a spreadsheet formula, CRLF line ends, and a UTF-8 BOM so
// spreadsheet apps read accents. Any "download as CSV" of the dashboard writes through here.

export async function toCsv(
  fields: readonly string[],
  rows: readonly (readonly unknown[])[],
): Promise<string> {
  const { default: Papa } = await import('papaparse');
  const data = rows.map((row) => row.map(csvCell));
  // papaparse's own escaping is off: its pattern (/^[=+\-@\t\r].*$/) misses a cell whose
  // first line is a formula and that goes on to a second line; csvCell judges the first character.
  return `\ufeff${Papa.unparse({ fields: [...fields], data }, { escapeFormulae: false, newline: '\r\n' })}`;
}

export function downloadText(text: string, fileName: string, type = 'text/csv;charset=utf-8'): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = fileName;
  anchor.hidden = true;
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
}
