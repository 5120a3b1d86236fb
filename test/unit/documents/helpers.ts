// Shared helpers of the document engine tests: run operations on markdown and read the markdown back.
import { expect } from 'vitest';
import { AppError } from '../../../domain/errors.js';
import { applyEdit, type EditOptions } from '../../../domain/document-engine/engine.js';
import { acceptSuggestion, rejectSuggestion, removeSuggestion } from '../../../domain/document-engine/suggestions.js';
import { renderMarkdown, stateFromMarkdown, type DocumentState } from '../../../domain/document-engine/state.js';

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

export function runCase(testCase: EditCase): string {
  const state = stateFromMarkdown(testCase.md);
  const result = applyEdit(state, testCase.ops, counters(testCase.mode ?? 'edit'));
  let next: DocumentState = result.state;
  for (const id of result.suggestionThreadIds) {
    if (testCase.then === 'accept') next = acceptSuggestion(next, id);
    if (testCase.then === 'reject') next = rejectSuggestion(next, id);
    if (testCase.then === 'remove') next = removeSuggestion(next, id);
  }
  return renderMarkdown(next);
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
