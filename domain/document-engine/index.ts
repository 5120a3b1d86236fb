// The document engine's public surface, for the API routes and the Temporal activities.
export { applyEdit, applyOperations, type EditOptions, type EditResult } from './engine.js';
export { WorkingDocument } from './working-document.js';
export { addComment, removeCommentMarks, type CommentTarget } from './comments.js';
export { acceptSuggestion, rejectSuggestion, removeSuggestion } from './suggestions.js';
export { parseOperations, type EditMode, type EditOperation } from './operations.js';
export type { Occurrence } from './quotes.js';
export { parseMarkdown } from './markdown.js';
export {
  emptyDocumentState,
  renderMarkdown,
  stateFromMarkdown,
  threadPlacement,
  threadPlacements,
  type BlockTypeChange,
  type CommentAnchor,
  type DocumentState,
  type FormatChange,
  type MarkJSON,
  type NodeJSON,
  type Placement,
  type SuggestionAnchor,
  type ThreadAnchor,
  type ThreadPlacement,
} from './state.js';
export type { QuoteCandidate } from './errors.js';
