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

const recorded = readdirSync(FIXTURES)
  .filter((file) => file.endsWith('.json'))
  .map((file) => ({
    workflowId: file,
    history: historyFromFixture(JSON.parse(readFileSync(FIXTURES + file, 'utf8'))),
  }));

const workflowTypeOf = (history: (typeof recorded)[number]['history']) =>
  history.events[0]?.workflowExecutionStartedEventAttributes?.workflowType?.name;

describe('recorded workflow histories', () => {
  it('cover every workflow type the worker runs', () => {
    const types = new Set(recorded.map(({ history }) => workflowTypeOf(history)));
    expect(Object.keys(workflows).filter((name) => !types.has(name))).toEqual([]);
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
