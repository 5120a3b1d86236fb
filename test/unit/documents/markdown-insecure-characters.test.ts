// CommonMark § 2.3 (insecure characters): U+0000 in markdown is read as U+FFFD, so no edit can store a NUL.
import { describe, expect, it } from 'vitest';
import {
  applyEdit,
  emptyDocumentState,
  renderMarkdown,
  stateFromMarkdown,
} from '../../../domain/document-engine/index.js';

describe('U+0000 in markdown', () => {
  it('reads as U+FFFD in a whole document', () => {
    expect(renderMarkdown(stateFromMarkdown('a\u0000b\n'))).toBe('a\uFFFDb');
  });

  it('reads as U+FFFD in an edit', () => {
    const { state } = applyEdit(emptyDocumentState(), [{ type: 'set_document', markdown: 'x\u0000y' }], {
      mode: 'edit',
    } as never);
    expect(renderMarkdown(state)).not.toContain('\u0000');
  });
});
