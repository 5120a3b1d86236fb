// How every command answers: with --json exactly one JSON object on stdout, else readable `key: value` lines, and a
// list (an array of objects, as `data` of webhook list) as a table with a header row.
export type Output = (result: object, options: { json?: boolean }) => void;

const cell = (value: unknown): string =>
  value === null || value === undefined ? '-' : typeof value === 'string' ? value : JSON.stringify(value);

const isRow = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Columns are the keys of the rows, in the order they first appear; each column as wide as its widest cell. */
function table(rows: Record<string, unknown>[]): string {
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  const cells = [columns, ...rows.map((row) => columns.map((column) => cell(row[column])))];
  const widths = columns.map((_, index) => Math.max(...cells.map((line) => line[index]!.length)));
  return cells
    .map((line) =>
      line
        .map((text, index) => (index === line.length - 1 ? text : text.padEnd(widths[index]!)))
        .join('  ')
        .trimEnd(),
    )
    .map((line) => `${line}\n`)
    .join('');
}

export const output: Output = (result, options) => {
  if (options.json) {
    process.stdout.write(JSON.stringify(result) + '\n');
    return;
  }
  for (const [key, value] of Object.entries(result)) {
    if (Array.isArray(value) && value.every(isRow)) {
      if (value.length === 0) process.stdout.write(`${key}: (none)\n`);
      else process.stdout.write(table(value));
    } else process.stdout.write(`${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}\n`);
  }
};
