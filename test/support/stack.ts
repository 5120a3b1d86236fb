// Loaded before every integration test file: points this process's configuration at the suite's stack.
import { afterAll, inject } from 'vitest';
import { flushSecrets } from './log-scan.js';

Object.assign(process.env, inject('stackEnv'));

// The secrets this file's tests obtained, for the scan of the logs when the suite ends (test/setup/global.ts).
afterAll(flushSecrets);
