// The CriticMarkup rule as it was before its scans were made linear (issue 14), kept as the reference the property
// test in critic-markup.test.ts holds the linear one to: both must read every input the same way.
import type { MarkdownIt, StateInline } from 'markdown-it';
import type { SuggestionKind } from '../../../domain/document-engine/schema.js';
import type { CriticMeta } from '../../../domain/document-engine/critic-markup.js';

const OPENERS: Record<string, { kind: SuggestionKind | 'replace'; closer: string }> = {
  '{++': { kind: 'insert', closer: '++}' },
  '{--': { kind: 'delete', closer: '--}' },
  '{==': { kind: 'format', closer: '==}' },
  '{~~': { kind: 'replace', closer: '~~}' },
};
const CLOSERS = new Set(['++}', '--}', '==}', '~~}']);

/** The raw content that turns a suggestion into a block-level one. */
const BLOCK_MARK = '¶';

/**
 * Finds the closer (or, for a replacement, the ~> separator) that ends a CriticMarkup span opened before `from`.
 * Escapes, code spans and nested spans are skipped so text written inside them cannot end the span early.
 */
function findCriticEnd(src: string, from: number, max: number, target: string): number {
  let depth = 0;
  let i = from;
  while (i < max) {
    const ch = src[i];
    if (ch === '\\') {
      i += 2;
      continue;
    }
    if (ch === '`') {
      let run = 1;
      while (src[i + run] === '`') run++;
      const close = findBacktickRun(src, i + run, max, run);
      i = close < 0 ? i + run : close + run;
      continue;
    }
    const three = src.slice(i, i + 3);
    if (three === '{>>') {
      const close = src.indexOf('<<}', i + 3);
      i = close < 0 || close + 3 > max ? i + 3 : close + 3;
      continue;
    }
    if (OPENERS[three]) {
      depth++;
      i += 3;
      continue;
    }
    if (depth === 0 && src.startsWith(target, i)) return i;
    if (depth > 0 && CLOSERS.has(three)) {
      depth--;
      i += 3;
      continue;
    }
    i++;
  }
  return -1;
}

function findBacktickRun(src: string, from: number, max: number, length: number): number {
  let i = from;
  while (i < max) {
    if (src[i] !== '`') {
      i++;
      continue;
    }
    let run = 1;
    while (src[i + run] === '`') run++;
    if (run === length) return i;
    i += run;
  }
  return -1;
}

/** Reads `{>>…<<}` at `pos`; returns its inner text and the position after it. */
function readNote(src: string, pos: number, max: number): { note: string; end: number } | null {
  if (!src.startsWith('{>>', pos)) return null;
  const close = src.indexOf('<<}', pos + 3);
  if (close < 0 || close + 3 > max) return null;
  return { note: src.slice(pos + 3, close), end: close + 3 };
}

const refOf = (note: string | null): number | null => {
  const match = note === null ? null : /^\s*s(\d{1,9})\s*$/.exec(note);
  return match ? Number(match[1]) : null;
};

function criticRule(state: StateInline, silent: boolean): boolean {
  const src = state.src;
  const start = state.pos;
  const max = state.posMax;
  if (src.charCodeAt(start) !== 0x7b /* { */) return false;
  const three = src.slice(start, start + 3);

  if (three === '{>>') {
    const alone = readNote(src, start, max);
    if (!alone) return false;
    if (!silent) {
      const token = state.push('critic_note', '', 0);
      token.meta = { kind: 'insert', ref: null, note: alone.note } satisfies CriticMeta;
    }
    state.pos = alone.end;
    return true;
  }

  const opener = OPENERS[three];
  if (!opener) return false;
  const contentStart = start + 3;
  const contentEnd = findCriticEnd(src, contentStart, max, opener.closer);
  if (contentEnd < 0) return false;
  let end = contentEnd + 3;
  const following = readNote(src, end, max);
  if (following) end = following.end;
  const note = following?.note ?? null;
  const ref = refOf(note);

  if (!silent) {
    const raw = src.slice(contentStart, contentEnd);
    if (opener.kind !== 'replace' && raw === BLOCK_MARK) {
      const token = state.push('critic_block', '', 0);
      token.meta = { kind: opener.kind, ref, note } satisfies CriticMeta;
    } else if (opener.kind === 'replace') {
      const separator = findCriticEnd(src, contentStart, contentEnd, '~>');
      if (separator < 0) {
        // {~~text~~} without ~> is not a replacement; read it as removed text so the caller can report the ref.
        pushSpan(state, 'delete', contentStart, contentEnd, ref, note);
      } else {
        pushSpan(state, 'delete', contentStart, separator, ref, note);
        pushSpan(state, 'insert', separator + 2, contentEnd, ref, note);
      }
    } else {
      pushSpan(state, opener.kind, contentStart, contentEnd, ref, note);
    }
  }
  state.pos = end;
  state.posMax = max;
  return true;
}

function pushSpan(
  state: StateInline,
  kind: SuggestionKind,
  from: number,
  to: number,
  ref: number | null,
  note: string | null,
) {
  const max = state.posMax;
  const open = state.push('critic_open', '', 1);
  open.meta = { kind, ref, note } satisfies CriticMeta;
  state.pos = from;
  state.posMax = to;
  state.md.inline.tokenize(state);
  state.push('critic_close', '', -1);
  state.posMax = max;
}

/** Adds the CriticMarkup rule to a markdown-it instance. */
export function referenceCriticMarkupPlugin(md: MarkdownIt): void {
  md.inline.ruler.after('text', 'critic_markup', criticRule);
}
