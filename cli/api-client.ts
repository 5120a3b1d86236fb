// The API commands' shared options (--url, --token, or FOLIO_URL, FOLIO_TOKEN; --json, --quiet), --window for the
// commands that move chunks, and the client they make.
import { Option, type Command } from 'commander';
import { FolioClient } from '../clients/typescript/src/index.js';
import { CliError } from './errors.js';
import { httpFetch } from './http-fetch.js';

export interface ApiOptions {
  url?: string;
  token?: string;
  window?: number;
  json?: boolean;
  quiet?: boolean;
  progress?: boolean;
}

function positiveInteger(name: string) {
  return (value: string): number => {
    const number = Number(value);
    if (!Number.isSafeInteger(number) || number <= 0)
      throw new CliError('usage', 'invalid_option', `${name} must be a positive integer`);
    return number;
  };
}

/** Adds --url, --token, --json and --quiet to an API command. */
export function apiCommand(command: Command): Command {
  return command
    .addOption(new Option('--url <url>', 'the Folio API base address').env('FOLIO_URL'))
    .addOption(new Option('--token <token>', 'a user access token').env('FOLIO_TOKEN'))
    .option('--json', 'print one JSON object (an error too: {"error": {code, message, status}})')
    .option('-q, --quiet', 'no progress and no notes on stderr');
}

/** apiCommand, --window and --progress: for the commands that move chunks (put, get, cat, sync). */
export function transferCommand(command: Command): Command {
  return apiCommand(command)
    .option('--window <parts>', 'chunks in flight at once per file (default 4)', positiveInteger('--window'))
    .option('-P, --progress', 'progress on stderr even when it is not a terminal (plain lines)');
}

/** A positive integer option's parser, for commands of this directory. */
export const countOption = positiveInteger;

export function clientFor(options: ApiOptions): FolioClient {
  if (!options.url) throw new CliError('usage', 'no_url', 'No API address: pass --url or set FOLIO_URL.');
  if (!options.token)
    throw new CliError('usage', 'no_token', 'No access token: pass --token or set FOLIO_TOKEN.');
  // node:http rather than the global fetch: undici's start-up would be most of a short command's time.
  return new FolioClient({
    baseUrl: options.url,
    token: options.token,
    window: options.window,
    fetch: httpFetch,
  });
}
