// The document engine's public surface, for the API routes and the Temporal activities.
export { applyEdit } from './engine.js';
export { WorkingDocument } from './working-document.js';
export { addComment, removeCommentMarks, type CommentTarget } from './comments.js';
export { acceptSuggestion, rejectSuggestion, removeSuggestion } from './suggestions.js';
export { parseOperations, type EditMode, type EditOperation } from './operations.js';
export {
  emptyDocumentState,
  renderMarkdown,
  stateFromMarkdown,
  type DocumentState,
  type ThreadPlacement,
} from './state.js';
