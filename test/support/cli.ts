// The operator CLI as operators run it: `npx folio ...`, with --json one JSON object on stdout or a failure on stderr.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import { rememberSecretsIn } from './log-scan.js';

const run = promisify(execFile);

/** Runs `npx folio <args>` as it is; rejects with the child's code, stdout and stderr when it exits non-zero. */
export async function runFolio(...args: string[]): Promise<{ stdout: string; stderr: string }> {
  // The source, even beside a build in dist/ (bin/folio.js): the suite tests the code in the checkout.
  const output = await run('npx', ['--no-install', 'folio', ...args], {
    env: { ...process.env, FOLIO_CLI_FROM_SOURCE: '1' },
  });
  // Tokens, keys, links and signing secrets it printed, for the scan of the logs (test/support/log-scan.ts).
  rememberSecretsIn(output.stdout);
  return output;
}

/** Each command starts a Node process that compiles the CLI from source: seconds each, more on a busy machine. */
export const CLI_TIMEOUT_MS = 300_000;

/** Runs `folio <args> --json` and answers the one JSON object it prints. */
export async function folio(...args: string[]): Promise<any> {
  const { stdout } = await runFolio(...args, '--json');
  const lines = stdout.trim().split('\n');
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0]!);
}

/** Runs `folio <args> --json`, which must fail with one JSON error object on stdout (docs/cli.md); answers its stderr. */
export async function folioFails(...args: string[]): Promise<string> {
  const failure = await runFolio(...args, '--json').then(
    () => undefined,
    (error: { code: number; stderr: string; stdout: string }) => error,
  );
  expect(failure, `folio ${args.join(' ')} should fail`).toBeDefined();
  expect(failure!.code).not.toBe(0);
  expect(JSON.parse(failure!.stdout)).toEqual({
    error: { code: expect.any(String), message: expect.any(String), status: null },
  });
  return failure!.stderr;
}
