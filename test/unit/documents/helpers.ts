// Shared helpers of the document engine tests: run operations on markdown and read the markdown back.
import { expect } from 'vitest';
import { AppError } from '../../../domain/errors.js';
import { applyEdit, type EditOptions } from '../../../domain/document-engine/engine.js';
import {
  acceptSuggestion,
  rejectSuggestion,
  removeSuggestion,
} from '../../../domain/document-engine/suggestions.js';
import { parseOperations } from '../../../domain/document-engine/operations.js';
import {
  renderMarkdown,
  stateFromMarkdown,
  type DocumentState,
} from '../../../domain/document-engine/state.js';
import { WorkingDocument } from '../../../domain/document-engine/working-document.js';
import { stateJson } from '../../../domain/documents/revision-log.js';

/** Options whose thread ids (t1, t2, …) and refs (1, 2, …) count from one per call. */
export function counters(mode: EditOptions['mode'] = 'edit'): EditOptions {
  let ids = 0;
  let refs = 0;
  return { mode, newThreadId: () => `t${++ids}`, nextRef: () => ++refs };
}

export interface EditCase {
  name: string;
  md: string;
  ops: unknown[];
  mode?: 'edit' | 'suggest';
  /** After suggesting, accept, reject or delete every new suggestion, in order. */
  then?: 'accept' | 'reject' | 'remove';
  expected: string;
}

/**
 * The markdown after a case, run on both paths the API takes, which must agree: cold (the state read back from its
 * stored JSON and parsed for each step) and cached (a WorkingDocument parsed once, read, then edited in place of a
 * parse, as the working-document cache keeps it).
 */
export function runCase(testCase: EditCase): string {
  const cold = runCold(testCase);
  const cached = runCached(testCase);
  expect(cached.markdown).toBe(cold.markdown);
  expect(JSON.parse(stateJson(cached.state))).toEqual(JSON.parse(stateJson(cold.state)));
  return cold.markdown;
}

const stored = (state: DocumentState): DocumentState => JSON.parse(stateJson(state)) as DocumentState;

function decide(state: DocumentState, id: string, then: EditCase['then']): DocumentState {
  if (then === 'accept') return acceptSuggestion(state, id);
  if (then === 'reject') return rejectSuggestion(state, id);
  if (then === 'remove') return removeSuggestion(state, id);
  return state;
}

function runCold(testCase: EditCase): { markdown: string; state: DocumentState } {
  const result = applyEdit(
    stored(stateFromMarkdown(testCase.md)),
    testCase.ops,
    counters(testCase.mode ?? 'edit'),
  );
  let next: DocumentState = result.state;
  for (const id of result.suggestionThreadIds) next = stored(decide(stored(next), id, testCase.then));
  return { markdown: renderMarkdown(next), state: next };
}

function runCached(testCase: EditCase): { markdown: string; state: DocumentState } {
  const document = WorkingDocument.open(stored(stateFromMarkdown(testCase.md)));
  // Read first, as a request reads the document it then edits: the block strings and units are made.
  void document.markdown;
  const options = counters(testCase.mode ?? 'edit');
  const result = document.edit(parseOperations(testCase.ops, options.mode), options);
  let next = result.document;
  for (const id of result.suggestionThreadIds)
    if (testCase.then) next = WorkingDocument.open(decide(next.state, id, testCase.then));
  return { markdown: next.markdown, state: next.state };
}

/** Runs a function expected to throw an AppError and returns it. */
export function appError(run: () => unknown): AppError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return error as AppError;
  }
  throw new Error('expected an AppError, but nothing was thrown');
}
