// How every command answers: with --json exactly one JSON object on stdout, else readable `key: value` lines.
export type Output = (result: object, options: { json?: boolean }) => void;

export const output: Output = (result, options) => {
  if (options.json) {
    process.stdout.write(JSON.stringify(result) + '\n');
    return;
  }
  for (const [key, value] of Object.entries(result))
    process.stdout.write(`${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}\n`);
};
