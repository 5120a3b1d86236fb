// The API commands' shared options (--url, --token, or FOLIO_URL, FOLIO_TOKEN) and the client they make.
import { Option, type Command } from 'commander';
import { FolioClient } from '../clients/typescript/src/index.js';

export interface ApiOptions {
  url?: string;
  token?: string;
  window?: number;
  json?: boolean;
}

function positiveInteger(value: string): number {
  const number = Number(value);
  if (!Number.isSafeInteger(number) || number <= 0) throw new Error('--window must be a positive integer');
  return number;
}

/** Adds --url, --token, --window and --json to an API command. */
export function apiCommand(command: Command): Command {
  return command
    .addOption(new Option('--url <url>', 'the Folio API base address').env('FOLIO_URL'))
    .addOption(new Option('--token <token>', 'a user access token').env('FOLIO_TOKEN'))
    .option('--window <parts>', 'chunks in flight at once (default 4)', positiveInteger)
    .option('--json', 'print one JSON object');
}

export function clientFor(options: ApiOptions): FolioClient {
  if (!options.url) throw new Error('No API address: pass --url or set FOLIO_URL.');
  if (!options.token) throw new Error('No access token: pass --token or set FOLIO_TOKEN.');
  return new FolioClient({ baseUrl: options.url, token: options.token, window: options.window });
}
