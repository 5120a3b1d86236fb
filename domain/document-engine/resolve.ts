// The document as it would read with every open suggestion decided one way: the "accepted" or "rejected" view that
// exports and restores use (docs/extensions.md § Documents). The stored document is never changed by it.
import { AppError } from '../errors.js';
import type { DocumentState } from './state.js';
import { acceptSuggestion, rejectSuggestion } from './suggestions.js';

export type SuggestionDecision = 'accept' | 'reject';

/**
 * Every open suggestion of `state` accepted or rejected, oldest ref first (the order they were made in). A suggestion
 * with nothing left in the text (suggestion_not_in_document) has nothing to decide and is skipped.
 */
export function resolveSuggestions(state: DocumentState, decision: SuggestionDecision): DocumentState {
  const decide = decision === 'accept' ? acceptSuggestion : rejectSuggestion;
  const open = state.threads
    .flatMap((thread) => (thread.kind === 'suggestion' && thread.status === 'open' ? [thread] : []))
    .sort((a, b) => a.ref - b.ref);
  let resolved = state;
  for (const thread of open) {
    try {
      resolved = decide(resolved, thread.id);
    } catch (error) {
      if (!(error instanceof AppError && error.code === 'suggestion_not_in_document')) throw error;
    }
  }
  return resolved;
}
