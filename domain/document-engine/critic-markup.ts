// A markdown-it inline rule that reads CriticMarkup suggestions ({++ ++}, {-- --}, {~~ ~> ~~}, {== ==}) and their {>>sN<<} refs.
import type { MarkdownIt, StateInline } from 'markdown-it';
import type { SuggestionKind } from './schema.js';
import { steps } from './steps.js';

/** Token meta of critic_open, critic_block and critic_note tokens. */
export interface CriticMeta {
  kind: SuggestionKind;
  /** The thread ref from the {>>sN<<} that follows, or null when there is none or it is not of that form. */
  ref: number | null;
  /** The raw text of the {>>…<<} that follows, for error messages. */
  note: string | null;
}

const OPENERS: Record<string, { kind: SuggestionKind | 'replace'; closer: string }> = {
  '{++': { kind: 'insert', closer: '++}' },
  '{--': { kind: 'delete', closer: '--}' },
  '{==': { kind: 'format', closer: '==}' },
  '{~~': { kind: 'replace', closer: '~~}' },
};

/** The raw content that turns a suggestion into a block-level one. */
export const BLOCK_MARK = '¶';

// The rule below runs at every `{` of a paragraph and must find where the span it opens ends. Scanning to the
// end of the text each time made `{++` repeated n times cost n² (minutes for n = 10⁵). The scans are instead walks
// over one tokenization of the source, remembered per position: each position of a paragraph is walked at most
// once per scan bound (posMax: the paragraph, or a span or link text being read inside it, so a few nested bounds)
// and per closer looked for. A walk behaves exactly as a plain left-to-right scan would:
//   - `\x` is skipped as a unit, so an escaped marker never counts;
//   - a backtick run skips to the next run of the same length before the bound (a code span), or is skipped alone;
//   - `{>>…<<}` is skipped as a unit when it closes before the bound, else `{>>` alone;
//   - an opener ({++ {-- {== {~~}) starts a nested span, which ends at the first closer of any kind outside spans
//     nested in it, or never (then the outer span never ends either);
//   - outside nested spans, the closer (or `~>`) looked for ends the walk; any other closer is plain text.

const BACKSLASH = 0x5c;
const BACKTICK = 0x60;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
/** Characters a marker can start with; any other character is plain text to a walk. */
const MARKER_START = /[\\`{+\-=~]/g;

const isMarkerSign = (code: number) =>
  code === 0x2b /* + */ || code === 0x2d /* - */ || code === 0x3d /* = */ || code === 0x7e; /* ~ */

/** The first entry of an ascending list at or after `from`, or -1. */
function firstAtOrAfter(sorted: readonly number[], from: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    steps.count++;
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! < from) lo = mid + 1;
    else hi = mid;
  }
  return lo < sorted.length ? sorted[lo]! : -1;
}

/** What the walks over one inline source share: where notes close and where backtick runs are, built when first needed. */
class CriticSource {
  private noteCloses: number[] | undefined;
  private runsByLength: Map<number, number[]> | undefined;
  private readonly bounds = new Map<number, CriticWalks>();

  constructor(readonly src: string) {}

  /** The walks bounded by `max`. */
  walks(max: number): CriticWalks {
    let walks = this.bounds.get(max);
    if (!walks) {
      walks = new CriticWalks(this, max);
      this.bounds.set(max, walks);
    }
    return walks;
  }

  /** The first `<<}` at or after `from`, or -1. */
  noteClose(from: number): number {
    if (!this.noteCloses) {
      this.noteCloses = [];
      for (let at = this.src.indexOf('<<}'); at >= 0; at = this.src.indexOf('<<}', at + 1)) {
        steps.count++;
        this.noteCloses.push(at);
      }
    }
    return firstAtOrAfter(this.noteCloses, from);
  }

  /** The start of the first whole backtick run of exactly `length` starting in [from, max), or -1. `from` is not inside a run. */
  backtickRun(from: number, max: number, length: number): number {
    if (!this.runsByLength) {
      this.runsByLength = new Map();
      const src = this.src;
      for (let at = src.indexOf('`'); at >= 0; at = src.indexOf('`', at)) {
        let run = 1;
        while (src.charCodeAt(at + run) === BACKTICK) run++;
        steps.count += run;
        const list = this.runsByLength.get(run) ?? [];
        list.push(at);
        this.runsByLength.set(run, list);
        at += run;
      }
    }
    const at = firstAtOrAfter(this.runsByLength.get(length) ?? [], from);
    return at >= 0 && at < max ? at : -1;
  }
}

/** Walks over a source bounded by `max`, with the end each walk found remembered by the positions it went through. */
class CriticWalks {
  /** Where a nested span starting at a position ends: the first closer outside deeper spans, or -1. */
  private readonly closes = new Map<number, number>();
  /** Per closer (or `~>`) looked for: where a walk from a position finds it outside nested spans, or -1. */
  private readonly targets = new Map<string, Map<number, number>>();
  private readonly src: string;

  constructor(
    private readonly source: CriticSource,
    private readonly max: number,
  ) {
    this.src = source.src;
  }

  private isOpener(i: number): boolean {
    const src = this.src;
    const sign = src.charCodeAt(i + 1);
    return src.charCodeAt(i) === OPEN_BRACE && isMarkerSign(sign) && src.charCodeAt(i + 2) === sign;
  }

  private isCloser(i: number): boolean {
    const src = this.src;
    const sign = src.charCodeAt(i);
    return isMarkerSign(sign) && src.charCodeAt(i + 1) === sign && src.charCodeAt(i + 2) === CLOSE_BRACE;
  }

  /** Where the unit at `i` ends when it is neither an opener nor a closer: an escape, a code span, a note or plain text. */
  private next(i: number): number {
    const src = this.src;
    const code = src.charCodeAt(i);
    if (code === BACKSLASH) return i + 2;
    if (code === BACKTICK) {
      let run = 1;
      while (src.charCodeAt(i + run) === BACKTICK) run++;
      steps.count += run;
      const close = this.source.backtickRun(i + run, this.max, run);
      return close < 0 ? i + run : close + run;
    }
    if (code === OPEN_BRACE && src.startsWith('{>>', i)) {
      const close = this.source.noteClose(i + 3);
      return close < 0 || close + 3 > this.max ? i + 3 : close + 3;
    }
    if (isMarkerSign(code) || code === OPEN_BRACE) return i + 1;
    // Plain text up to the next character a marker can start with.
    MARKER_START.lastIndex = i;
    const found = MARKER_START.exec(src);
    const to = found ? found.index : src.length;
    steps.count += to - i;
    return to;
  }

  /** Where `target` is found from `from`, outside nested spans and before the bound, or -1. */
  find(from: number, target: string): number {
    let memo = this.targets.get(target);
    if (!memo) {
      memo = new Map();
      this.targets.set(target, memo);
    }
    const path: number[] = [];
    let i = from;
    let found: number;
    for (;;) {
      steps.count++;
      if (i >= this.max) {
        found = -1;
        break;
      }
      const known = memo.get(i);
      if (known !== undefined) {
        found = known;
        break;
      }
      path.push(i);
      if (this.isOpener(i)) {
        const close = this.closeFrom(i + 3);
        if (close < 0) {
          found = -1;
          break;
        }
        i = close + 3;
      } else if (this.src.startsWith(target, i)) {
        found = i;
        break;
      } else {
        // Another kind of closer is plain text here; none of its characters starts a marker.
        i = this.isCloser(i) ? i + 3 : this.next(i);
      }
    }
    for (const position of path) memo.set(position, found);
    return found;
  }

  /** Where a nested span whose content starts at `from` ends: the first closer outside deeper spans, or -1. */
  private closeFrom(from: number): number {
    const memo = this.closes;
    // The walks of enclosing spans waiting for this one, each with the positions it went through.
    const outer: Array<{ path: number[]; opener: number }> = [];
    let path: number[] = [];
    let i = from;
    for (;;) {
      steps.count++;
      let found: number;
      const known = i < this.max ? memo.get(i) : -1;
      if (known !== undefined) found = known;
      else if (this.isCloser(i)) found = i;
      else if (this.isOpener(i)) {
        outer.push({ path, opener: i });
        path = [];
        i += 3;
        continue;
      } else {
        path.push(i);
        i = this.next(i);
        continue;
      }
      // The walk in `path` ends at `found`; the enclosing one goes on after it, or never ends when it does not.
      for (;;) {
        for (const position of path) memo.set(position, found);
        const enclosing = outer.pop();
        if (!enclosing) return found;
        path = enclosing.path;
        path.push(enclosing.opener);
        if (found >= 0) {
          i = found + 3;
          break;
        }
      }
    }
  }
}

const sources = new WeakMap<StateInline, CriticSource>();

/** What the walks over the inline source being read share. */
function sourceOf(state: StateInline): CriticSource {
  let source = sources.get(state);
  if (!source || source.src !== state.src) {
    source = new CriticSource(state.src);
    sources.set(state, source);
  }
  return source;
}

/** Reads `{>>…<<}` at `pos`; returns its inner text and the position after it. */
function readNote(state: StateInline, pos: number, max: number): { note: string; end: number } | null {
  const src = state.src;
  if (!src.startsWith('{>>', pos)) return null;
  const close = sourceOf(state).noteClose(pos + 3);
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
    const alone = readNote(state, start, max);
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
  const contentEnd = sourceOf(state).walks(max).find(contentStart, opener.closer);
  if (contentEnd < 0) return false;
  let end = contentEnd + 3;
  const following = readNote(state, end, max);
  if (following) end = following.end;
  const note = following?.note ?? null;
  const ref = refOf(note);

  if (!silent) {
    const raw = src.slice(contentStart, contentEnd);
    if (opener.kind !== 'replace' && raw === BLOCK_MARK) {
      const token = state.push('critic_block', '', 0);
      token.meta = { kind: opener.kind, ref, note } satisfies CriticMeta;
    } else if (opener.kind === 'replace') {
      const separator = sourceOf(state).walks(contentEnd).find(contentStart, '~>');
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
export function criticMarkupPlugin(md: MarkdownIt): void {
  md.inline.ruler.after('text', 'critic_markup', criticRule);
}
