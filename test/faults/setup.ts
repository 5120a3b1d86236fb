// Fault suite global setup: the integration suite's stack (test/setup/global.ts), except that Temporal keeps its data
// in a SQLite file so a test can restart it, and MinIO too, data kept. Picks the run's seed and prints it.
import type { TestProject } from 'vitest/node';
import { startSuiteStack } from '../setup/global.js';
import { faultsScale } from './support/scale.js';

declare module 'vitest' {
  export interface ProvidedContext {
    faultsSeed: number;
  }
}

export default async function setup(project: TestProject) {
  const seed = process.env.FOLIO_FAULTS_SEED
    ? Number(process.env.FOLIO_FAULTS_SEED)
    : Math.floor(Math.random() * 2 ** 31);
  console.log(
    `\n[faults] seed ${seed}, size ${faultsScale()} — replay with FOLIO_FAULTS_SEED=${seed} FOLIO_FAULTS_SCALE=${faultsScale()}\n`,
  );
  project.provide('faultsSeed', seed);
  // The workflows are bundled once by startSuiteStack, so the workers restarted after each kill start without webpack.
  return startSuiteStack(project, {
    label: 'faults',
    persistentTemporal: true,
    env: {
      // Long enough that an upload survives a few kills of the API before its client completes it; short enough that
      // the invariants wait out what a killed client abandoned (docs/faults.md § Grace periods).
      FOLIO_UPLOAD_EXPIRY: '30s',
      FOLIO_FILE_VERSION_RETENTION: '10s',
      // A receiver on this busy machine may take seconds to answer: the integration suite's 2 s would count a slow
      // answer as a failure, and two events failed in a row disable a destination, which no fault should cause.
      FOLIO_WEBHOOK_TIMEOUT: '15s',
    },
  });
}
