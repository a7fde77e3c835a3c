import './bulk.css';
import { Paper, Stack, Text } from '@mantine/core';
import { type DragEvent, useState } from 'react';
import { countOf } from '../../../lib/format.ts';

// The list's file: chosen with the file input, or dropped anywhere on the panel.

export function FilePicker({
  fileName,
  fileError,
  rows,
  onFile,
}: {
  fileName: string | null;
  fileError: string | null;
  /** Rows read from the file, once it was read. */
  rows: number | null;
  onFile: (file: File) => void;
}) {
  const [dragging, setDragging] = useState(false);
  const drop = (event: DragEvent<HTMLElement>) => {
    event.preventDefault();
    setDragging(false);
    const file = event.dataTransfer.files[0];
    if (file) onFile(file);
  };
  return (
    <Paper
      withBorder
      p="lg"
      radius="md"
      className={dragging ? 'bulk-drop bulk-drop--over' : 'bulk-drop'}
      onDragOver={(event) => {
        event.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={drop}
    >
      <Stack gap="xs">
        <label htmlFor="bulk-file">
          <Text fw={600}>Customer list (CSV or TSV, up to 10,000 rows and 2 MB)</Text>
        </label>
        <Text size="sm" c="dimmed">
          Drop the file here or choose it. The first row names the columns: a name, a phone number and an
          email address, as your spreadsheet exports them.
        </Text>
        <input
          id="bulk-file"
          type="file"
          accept=".csv,.tsv,.txt,text/csv,text/tab-separated-values,text/plain"
          onChange={(event) => {
            const file = event.currentTarget.files?.[0];
            if (file) onFile(file);
          }}
        />
        {fileName && !fileError && rows !== null && (
          <Text size="sm">
            {fileName}: {countOf(rows, 'row', 'rows')}
          </Text>
        )}
        {fileError && (
          <Text c="var(--mantine-color-error)" size="sm" role="alert">
            {fileError}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}
