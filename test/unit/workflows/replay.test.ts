// Replays the recorded history of every workflow type (test/fixtures/workflow-histories/) against the current workflow
// code: a change that would break workflows already running on a cluster fails here. Needs no server.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { DefaultLogger, Runtime, Worker } from '@temporalio/worker';
import { describe, expect, it } from 'vitest';
import * as workflows from '../../../workflows/index.js';
import { historyFromFixture } from '../../fixtures/workflow-histories/format.js';

// The replay worker reports every state change at INFO; a failure is what this test has to show.
Runtime.install({ logger: new DefaultLogger('WARN') });

const FIXTURES = fileURLToPath(new URL('../../fixtures/workflow-histories/', import.meta.url));
const WORKFLOWS_PATH = fileURLToPath(new URL('../../../workflows/index.ts', import.meta.url));

const fixtures = readdirSync(FIXTURES)
  .filter((file) => file.endsWith('.json'))
  .map((file) => ({ file, fixture: JSON.parse(readFileSync(FIXTURES + file, 'utf8')) as unknown }));

const recorded = fixtures.map(({ file, fixture }) => ({
  workflowId: file,
  history: historyFromFixture(fixture),
}));

/**
 * The webhook delivery histories by generation (record.ts's header), each with the field its attempts answer: every
 * generation has to keep replaying, and each must hold the result shape it stands for, or the workflow's rule for
 * that shape goes untested.
 */
const DELIVERY_GENERATIONS = [
  { prefix: 'webhook-delivery-activities-', answers: 'retryDelayMs' },
  { prefix: 'webhook-delivery-before-schedule-', answers: 'retryDelayMs' },
  { prefix: 'webhook-delivery-', answers: 'retryInMs' },
] as const;
const DELIVERY_RECORDINGS = ['retried', 'retried-now', 'stopped', 'failed-disabled', 'disabled-inward'];

const generationOf = (file: string) =>
  DELIVERY_GENERATIONS.find(({ prefix }) =>
    DELIVERY_RECORDINGS.some((recording) => file === `${prefix}${recording}.json`),
  );

interface FixtureEvent {
  activityTaskCompletedEventAttributes?: { result?: { payloads?: { data?: string }[] } };
  markerRecordedEventAttributes?: { details?: { result?: { payloads?: { data?: string }[] } } };
}

/** What each attempt answered, as an activity's result or a local activity's marker (base64 JSON payloads). */
const attemptResults = (fixture: unknown) =>
  ((fixture as { events: FixtureEvent[] }).events ?? [])
    .flatMap(
      (event) =>
        event.activityTaskCompletedEventAttributes?.result?.payloads ??
        event.markerRecordedEventAttributes?.details?.result?.payloads ??
        [],
    )
    .map(({ data }) => JSON.parse(Buffer.from(data ?? '', 'base64').toString()) as Record<string, unknown>);

const workflowTypeOf = (history: (typeof recorded)[number]['history']) =>
  history.events[0]?.workflowExecutionStartedEventAttributes?.workflowType?.name;

describe('recorded workflow histories', () => {
  it('cover every workflow type the worker runs', () => {
    const types = new Set(recorded.map(({ history }) => workflowTypeOf(history)));
    expect(Object.keys(workflows).filter((name) => !types.has(name))).toEqual([]);
  });

  it('keep every generation of webhook delivery, each answering with its own result shape', () => {
    const files = new Set(fixtures.map(({ file }) => file));
    const expected = DELIVERY_GENERATIONS.flatMap(({ prefix }) =>
      DELIVERY_RECORDINGS.map((recording) => `${prefix}${recording}.json`),
    );
    expect(expected.filter((file) => !files.has(file))).toEqual([]);
    for (const { file, fixture } of fixtures) {
      const generation = generationOf(file);
      if (!generation) continue;
      const results = attemptResults(fixture);
      expect(results.length, file).toBeGreaterThan(0);
      const other = generation.answers === 'retryInMs' ? 'retryDelayMs' : 'retryInMs';
      for (const result of results) {
        expect(result, file).toHaveProperty(generation.answers);
        expect(result, file).not.toHaveProperty(other);
      }
    }
  });

  it('replay against the current workflow code without a nondeterminism error', async () => {
    const failures: string[] = [];
    let replayed = 0;
    for await (const result of Worker.runReplayHistories({ workflowsPath: WORKFLOWS_PATH }, recorded)) {
      replayed++;
      if (result.error) failures.push(`${result.workflowId}: ${result.error.message}`);
    }
    expect(failures).toEqual([]);
    expect(replayed).toBe(recorded.length);
  }, 240_000);
});
