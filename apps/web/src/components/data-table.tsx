import type { ReactNode } from 'react';

/** A column heading; a hidden one is read by assistive technology only (a column of row actions). */
export type DataColumn = string | { hidden: string };

/**
 * The dashboard's table (`.data-table` in app/page.css): its column headings in order, then the
 * rows the caller renders.
 */
export function DataTable({
  columns,
  label,
  className,
  busy,
  children,
}: {
  columns: readonly DataColumn[];
  label?: string;
  /** Classes beside `data-table` (a table's own layout, such as its cards on a narrow screen). */
  className?: string;
  busy?: boolean;
  children: ReactNode;
}) {
  return (
    <table
      className={className ? `data-table ${className}` : 'data-table'}
      aria-label={label}
      aria-busy={busy}
    >
      <thead>
        <tr>
          {columns.map((column) =>
            typeof column === 'string' ? (
              <th key={column}>{column}</th>
            ) : (
              <th key={column.hidden}>
                <span className="visually-hidden">{column.hidden}</span>
              </th>
            ),
          )}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
}
