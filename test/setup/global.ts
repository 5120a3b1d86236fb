// Integration suite global setup: a throw-away stack (deploy/local/ephemeral-stack.ts) for this run only.
// Test files read its configuration through test/support/stack.ts.
import type { TestProject } from 'vitest/node';
import { startEphemeralStack } from '../../deploy/local/ephemeral-stack.js';

declare module 'vitest' {
  export interface ProvidedContext {
    stackEnv: Record<string, string>;
  }
}

export default async function setup(project: TestProject) {
  const stack = await startEphemeralStack({
    label: 'test',
    preferPrivatePostgres: process.env.FOLIO_TEST_PRIVATE_POSTGRES === '1',
    keep: Boolean(process.env.FOLIO_TEST_KEEP),
    env: {
      FOLIO_LOG_LEVEL: process.env.FOLIO_LOG_LEVEL ?? 'info',
      // Durations the spec fixes, shortened so lifecycle tests run in seconds.
      FOLIO_UPLOAD_EXPIRY: process.env.FOLIO_UPLOAD_EXPIRY ?? '8s',
      FOLIO_FILE_VERSION_RETENTION: process.env.FOLIO_FILE_VERSION_RETENTION ?? '4s',
      FOLIO_DOCUMENT_TRASH_RETENTION: process.env.FOLIO_DOCUMENT_TRASH_RETENTION ?? '4s',
      // Documents' limits, small enough that their tests reach them in a few requests (docs/documents-api.md § Limits).
      FOLIO_DOCUMENT_MAX_BYTES: '500000',
      FOLIO_DOCUMENT_MAX_THREADS: '25',
      FOLIO_LIVE_STREAMS_PER_USER: '4',
      // Shorter than the 30 s default so the slow-loris test ends sooner, yet far above any stall of a busy machine.
      FOLIO_HTTP_HEADERS_TIMEOUT: '15s',
    },
  });
  project.provide('stackEnv', { ...stack.env, FOLIO_TEST_ROOT: stack.root });
  return stack.stop;
}
