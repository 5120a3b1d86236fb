// What the benchmarks share: printing a result line, percentiles, profiling the stack's processes, and sample
// markdown of a given size.
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';

export const say = (line: string) => process.stdout.write(`${line}\n`);

/**
 * FOLIO_BENCH_CPU_PROF=<dir>: the configuration that makes a stack's Node processes (API, worker) write CPU profiles
 * there when they exit (bench/cpu-profile.mjs); bench/profile-summary.ts reads them. Empty otherwise. The directory
 * is created here: the processes write into it only at exit, where a missing one would lose the profile silently.
 */
export function profileEnv(): Record<string, string> {
  const dir = process.env.FOLIO_BENCH_CPU_PROF;
  if (!dir) return {};
  mkdirSync(resolve(dir), { recursive: true });
  return { NODE_OPTIONS: `--import ${resolve('bench/cpu-profile.mjs')}`, FOLIO_CPU_PROF_DIR: resolve(dir) };
}

/** The p-th percentile of ascending values (nearest rank). */
export const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

/**
 * Markdown of about `bytes` bytes: headings, paragraphs of `word` with some formatting, lists and, with `quotes`,
 * blockquotes; one unique edit target ("The edit target alpha sits here.") mid-way.
 */
export function sampleMarkdown(bytes: number, options: { word?: string; quotes?: boolean } = {}): string {
  const word = options.word ?? 'Paragraph';
  const blocks: string[] = [];
  let size = 0;
  let n = 0;
  let targetPlaced = false;
  while (size < bytes) {
    n++;
    let block: string;
    if (n % 10 === 1) block = `## Section ${n}`;
    else if (n % 10 === 5) block = `- item ${n} one\n- item ${n} two with **bold** text\n- item ${n} three`;
    else if (options.quotes && n % 10 === 8)
      block = `> Quoted ${n} with \`code\` and ~~struck~~ text\n> over two lines`;
    else
      block = `${word} ${n} has *some* text, a [link](https://example.com/${n}) and <u>underlined</u> words to read through.`;
    if (!targetPlaced && size >= bytes / 2) {
      block = 'The edit target alpha sits here.';
      targetPlaced = true;
    }
    blocks.push(block);
    size += block.length + 2;
  }
  return blocks.join('\n\n');
}
