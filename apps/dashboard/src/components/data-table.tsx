import { flexRender, getCoreRowModel, useReactTable, type ColumnDef } from '@tanstack/react-table';
import type { ReactNode } from 'react';

/** One column: its header (said to screen readers only when `hiddenHeader`, e.g. a column of buttons) and its cell. */
export interface Column<T> {
  header: string;
  hiddenHeader?: boolean;
  cell: (row: T) => ReactNode;
}

/**
 * Every table of the dashboard (TanStack Table underneath): a caption (visually hidden unless it says something the
 * eye needs, like the plan and currency of a price list), column headers with `scope="col"`, a row per record. On a
 * phone a `stacked` table shows each row as a card of "Header: value" lines instead of scrolling sideways.
 */
export function DataTable<T>({
  caption,
  captionVisible,
  captionClassName,
  columns,
  rows,
  rowKey,
  rowProps,
  stacked,
  testId,
}: {
  caption: ReactNode;
  captionVisible?: boolean;
  captionClassName?: string;
  columns: readonly Column<T>[];
  rows: readonly T[];
  rowKey: (row: T) => string;
  /** Attributes of a row's `<tr>` (a `data-testid`, a `data-channel`). */
  rowProps?: (row: T) => Record<string, string | undefined>;
  stacked?: boolean;
  testId?: string;
}) {
  const table = useReactTable<T>({
    data: rows as T[],
    columns: columns.map(toColumnDef),
    getCoreRowModel: getCoreRowModel(),
    getRowId: (row) => rowKey(row),
  });
  return (
    <table className={stacked ? 'stacked-table' : undefined} data-testid={testId}>
      <caption className={captionVisible ? captionClassName : 'visually-hidden'}>{caption}</caption>
      <thead>
        {table.getHeaderGroups().map((group) => (
          <tr key={group.id}>
            {group.headers.map((header) => {
              const column = columns[header.index];
              return (
                <th key={header.id} scope="col">
                  {column.hiddenHeader ? <span className="visually-hidden">{column.header}</span> : column.header}
                </th>
              );
            })}
          </tr>
        ))}
      </thead>
      <tbody>
        {table.getRowModel().rows.map((row) => (
          <tr key={row.id} {...rowProps?.(row.original)}>
            {row.getVisibleCells().map((cell, index) => {
              const column = columns[index];
              return (
                <td key={cell.id} data-label={stacked && !column.hiddenHeader ? column.header : undefined}>
                  {flexRender(cell.column.columnDef.cell, cell.getContext())}
                </td>
              );
            })}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function toColumnDef<T>(column: Column<T>, index: number): ColumnDef<T> {
  return { id: String(index), header: column.header, cell: ({ row }) => column.cell(row.original) };
}
