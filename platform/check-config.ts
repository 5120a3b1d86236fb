// Imported first by every entry point: a bad environment stops the process with one clear message, no stack.
import { ConfigError, config } from './config.js';

try {
  config();
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exit(78); // EX_CONFIG
}
