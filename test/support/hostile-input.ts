// Hostile input for the edge (issue 22, docs/fuzzing.md § Bounded input): JSON far deeper, wider or longer than any
// route needs, built as text (JSON.stringify recurses), and /readyz timed on the same API process while a request runs.
import { call, firstApiUrl, type ApiResponse } from './api.js';

/** `depth` arrays, each holding the next: `[[[…]]]`. */
export const nestedArrays = (depth: number): string => '['.repeat(depth) + ']'.repeat(depth);

/** A JSON object whose `field` holds `valueText` (raw JSON text), beside `rest`. */
export const bodyWith = (field: string, valueText: string, rest: Record<string, unknown> = {}): string => {
  const others = JSON.stringify(rest).slice(1, -1);
  return `{${others ? `${others},` : ''}${JSON.stringify(field)}:${valueText}}`;
};

/** The hostile sizes of docs/fuzzing.md § Bounded input, as the value of one field (raw JSON text). */
export const HOSTILE_VALUES: { name: string; text: () => string; tooDeep?: boolean }[] = [
  { name: '100,000 nested arrays', text: () => nestedArrays(100_000), tooDeep: true },
  // With the body's own object, 65 levels: one past the limit.
  { name: '64 nested arrays', text: () => nestedArrays(64), tooDeep: true },
  { name: 'an array of 100,000 elements', text: () => `[${Array(100_000).fill('0').join(',')}]` },
  { name: 'a string of 1,000,000 characters', text: () => JSON.stringify('a'.repeat(1_000_000)) },
  {
    name: 'an object of 100,000 keys',
    text: () => `{${Array.from({ length: 100_000 }, (_, index) => `"${index.toString(36)}":0`).join(',')}}`,
  },
];

/** A whole body of 100,000 keys: the width is at the top level, where every walk over the body starts. */
export const manyKeysBody = (): string =>
  `{${Array.from({ length: 100_000 }, (_, index) => `"${index.toString(36)}":0`).join(',')}}`;

export interface WhileRunning<T> {
  result: T;
  /** How long the request took, from its start to its answer. */
  requestMs: number;
  /** The slowest /readyz answer timed while the request ran (at least one is timed). */
  slowestReadyMs: number;
  readyStatuses: number[];
}

/**
 * Runs `request` against the first API process and, until it settles, times /readyz on the same process one call
 * after another: a request that holds the event loop makes one of those wait as long as it does.
 */
export async function whileTimingReadyz<T>(request: (api: string) => Promise<T>): Promise<WhileRunning<T>> {
  const api = firstApiUrl();
  // The first /readyz of a process opens its connections to Temporal and storage: that wait is not the request's.
  await call('GET', '/readyz', { api });
  let settled = false;
  let requestMs = 0;
  const started = performance.now();
  const running = request(api).finally(() => {
    settled = true;
    requestMs = performance.now() - started;
  });
  // Its rejection is taken by `await running` below; marked handled now, so one that comes while a /readyz is awaited
  // is not reported as unhandled first.
  running.catch(() => undefined);
  let slowestReadyMs = 0;
  const readyStatuses: number[] = [];
  do {
    const start = performance.now();
    const ready = await call('GET', '/readyz', { api });
    slowestReadyMs = Math.max(slowestReadyMs, performance.now() - start);
    readyStatuses.push(ready.status);
  } while (!settled);
  const result = await running;
  return { result, requestMs, slowestReadyMs, readyStatuses };
}

/** Sends `text` as a JSON body. */
export const sendJson = (
  api: string,
  method: string,
  path: string,
  token: string,
  text: string,
): Promise<ApiResponse> =>
  call(method, path, { api, token, body: text, headers: { 'content-type': 'application/json' } });
