// A process that uploads a file with @folio/client and holds half-way, for the test that SIGKILLs it
// (test/integration/clients/typescript-client.test.ts). It reads the file only below HOLD_AT (a byte offset, a part
// boundary): a read at or past it never answers, so once every part below it is stored the upload waits, with no
// request in flight, until the process is killed. It prints `stored <n>` on stdout as each part is recorded in the
// state file, and checks every API answer against the OpenAPI document as the suite does.
// Usage: node --import tsx test/support/upload-child.ts URL TOKEN FILE STATE_FILE HOLD_AT WINDOW
import { basename } from 'node:path';
import { stat } from 'node:fs/promises';
import { FolioClient, fileSource, type ByteSource } from '../../clients/typescript/src/index.js';
import { checkApiResponse } from './openapi-check.js';

const [baseUrl, token, file, stateFile, holdAt, window] = process.argv.slice(2);
if (!baseUrl || !token || !file || !stateFile || !holdAt || !window)
  throw new Error('usage: upload-child.ts URL TOKEN FILE STATE_FILE HOLD_AT WINDOW');

// A pending promise keeps nothing alive: without a handle, Node would end the held process on its own.
const alive = setInterval(() => undefined, 60_000);
const read = fileSource(file) as Exclude<ByteSource, Uint8Array>;
const source: ByteSource = (offset, length) =>
  offset >= Number(holdAt) ? new Promise<never>(() => undefined) : read(offset, length);
const client = new FolioClient({ baseUrl, token, window: Number(window), onResponse: checkApiResponse });
await client.upload(
  { name: basename(file), contentType: 'application/octet-stream', size: (await stat(file)).size, source },
  { stateFile, onPartStored: (n) => process.stdout.write(`stored ${n}\n`) },
);
// Not reached while the hold lasts: the upload completes only if HOLD_AT is past the end.
process.stdout.write('completed\n');
clearInterval(alive);
