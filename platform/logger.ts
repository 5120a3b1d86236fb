// The application logger: structured JSON lines. Never log tokens, keys or content.
import { pino } from 'pino';
import { config } from './config.js';
import { currentRequestId } from './request-scope.js';
import { redactPath } from './secret-paths.js';

export const logger = pino({
  level: config().logLevel,
  base: { service: 'folio' },
  // Whatever logs inside an operation (API request, or an activity of a workflow a request started) names its id.
  mixin: () => {
    const requestId = currentRequestId();
    return requestId ? { request_id: requestId } : {};
  },
  // A request path is logged only through the one redaction of secret segments, whoever logs it.
  serializers: { path: (value: unknown) => (typeof value === 'string' ? redactPath(value) : value) },
  redact: {
    paths: ['req.headers.authorization', '*.access_token', '*.data_key', '*.signing_secret'],
    remove: true,
  },
});

export type Logger = typeof logger;
