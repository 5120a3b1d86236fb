// What the markdown writers build: written text with a unit per character saying where it came from, and joining it.
import { steps } from './steps.js';

/** One character of text (or one leaf: a rule, an image, a line break) and where it was written. */
export interface TextUnit {
  /** Offsets in the markdown, end exclusive; an escaped character spans its backslash too. */
  md: number;
  mdEnd: number;
  /** Document positions, end exclusive. */
  from: number;
  to: number;
}

/** Open suggestions by thread id and by ref: the writer names refs, the verification reads them back. */
export interface WriteContext {
  refOf(thread: string): number | null;
  suggestionRefs: ReadonlyMap<number, string>;
  /** Names the refs above; blocks written under the same signature are reused from a cache. */
  signature?: string;
  /**
   * Inline text the API hands out on its own (a suggestion's text), not a block: whitespace at its edges is written
   * as itself, since no block reading will trim it.
   */
  fragment?: boolean;
}

/** A written piece of markdown and the units of the text in it, offsets from its own start. */
export interface Frag {
  text: string;
  units: TextUnit[];
}

export const EMPTY: Frag = { text: '', units: [] };

/** Syntax alone: text that stands for no character of the document. */
export const plain = (text: string): Frag => ({ text, units: [] });

/** Joins fragments; `separator` is one string for every gap, or one per gap. */
export function join(frags: Frag[], separator: string | string[]): Frag {
  let text = '';
  const units: TextUnit[] = [];
  frags.forEach((frag, i) => {
    if (i > 0) text += typeof separator === 'string' ? separator : separator[i - 1]!;
    const shift = text.length;
    for (const unit of frag.units)
      units.push({ md: unit.md + shift, mdEnd: unit.mdEnd + shift, from: unit.from, to: unit.to });
    text += frag.text;
  });
  return { text, units };
}

/** The longest run of `ch` in `text`: a code fence must be longer than any run of backticks inside it. */
export function longestRun(text: string, ch: string): number {
  let longest = 0;
  let run = 0;
  for (const c of text) {
    run = c === ch ? run + 1 : 0;
    longest = Math.max(longest, run);
  }
  return longest;
}

/**
 * The index of the first unit that ends after `offset` (units.length when none does). Units are in writing order, so
 * their offsets only grow: a binary search, as a quote matched many times in one long block must not rescan it per match.
 */
export function firstEndingAfter(units: readonly TextUnit[], offset: number): number {
  let lo = 0;
  let hi = units.length;
  while (lo < hi) {
    steps.count++;
    const mid = (lo + hi) >> 1;
    if (units[mid]!.mdEnd <= offset) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
