// Loaded before every integration test file: points this process's configuration at the suite's stack.
import { inject } from 'vitest';

Object.assign(process.env, inject('stackEnv'));
