// The application logger: structured JSON lines. Never log tokens, keys or content.
import { pino } from 'pino';
import { config } from './config.js';

export const logger = pino({
  level: config().logLevel,
  base: { service: 'folio' },
  redact: { paths: ['req.headers.authorization', '*.access_token', '*.data_key', '*.signing_secret'], remove: true },
});

export type Logger = typeof logger;
