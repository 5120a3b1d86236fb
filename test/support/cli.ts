// The operator CLI as operators run it: `npx folio ... --json`, exactly one JSON object on stdout.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect } from 'vitest';

const run = promisify(execFile);

/** Each command starts a Node process that compiles the CLI from source: seconds each, more on a busy machine. */
export const CLI_TIMEOUT_MS = 300_000;

export async function folio(...args: string[]): Promise<any> {
  const { stdout } = await run('npx', ['--no-install', 'folio', ...args, '--json'], { env: process.env });
  const lines = stdout.trim().split('\n');
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0]!);
}
