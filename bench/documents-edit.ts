// Benchmark: the latency of a one-operation edit on documents of 10 KB, 100 KB and 1 MB of markdown, timed at the
// client around each HTTP call (this process; the API is a process of its own), and revisions per second on one
// document under concurrent editors (issue 24): 8 editors without base_revision, each changing a line of its own,
// beside one editor's serial rate on the same kind of document (target ≥ 0.8×), and 8 editors that send
// base_revision and retry on 409 reported beside them; the three alternated for FOLIO_BENCH_ROUNDS rounds (default 3)
// with the order changed each round, medians reported. Each latency is printed beside its target (issue 12) and the
// engine alone in this process on the same document and edit, cold (parsed from the stored JSON, as before the
// working-document cache) and cached (WorkingDocument.edit, what the API does).
//
//   node --import tsx bench/documents-edit.ts
//
// Starts its own throw-away stack the way the integration tests do (a fresh PostgreSQL database, in-memory
// Temporal, MinIO, the API as its own process; no worker) and removes it afterwards. FOLIO_BENCH_EDITS (default 200)
// measured edits per size after 10 of warm-up, FOLIO_BENCH_EDITORS (default 8) concurrent editors for
// FOLIO_BENCH_SECONDS (default 10) seconds per measurement; FOLIO_BENCH_SIZES (KB, default 10,100,1024) and
// FOLIO_BENCH_BUDGET (seconds of edits per size, default 300) bound the run. FOLIO_BENCH_CPU_PROF=<dir> profiles the
// API process (bench/cpu-profile.mjs) into that directory; the profile is written when the stack stops it.
import { randomBytes } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { startEphemeralStack } from '../deploy/local/ephemeral-stack.js';
import { issueAccessToken } from '../domain/accounts/credentials.js';
import { createUser, createWorkspace } from '../domain/accounts/workspaces.js';
import { createDb } from '../platform/database.js';
import {
  applyEdit,
  renderMarkdown,
  stateFromMarkdown,
  WorkingDocument,
  type DocumentState,
} from '../domain/document-engine/index.js';
import { parseOperations } from '../domain/document-engine/operations.js';
import { percentile, profileEnv, sampleMarkdown, say } from './support.js';

const EDITS = Number(process.env.FOLIO_BENCH_EDITS ?? 200);
const WARMUP_EDITS = 10;
const ROUNDS = Number(process.env.FOLIO_BENCH_ROUNDS ?? 3);
const EDITORS = Number(process.env.FOLIO_BENCH_EDITORS ?? 8);
const SECONDS = Number(process.env.FOLIO_BENCH_SECONDS ?? 10);
/** Document sizes in KB (FOLIO_BENCH_SIZES, default 10,100,1024). */
const SIZES = (process.env.FOLIO_BENCH_SIZES ?? '10,100,1024').split(',').map((kb) => ({
  label: Number(kb) >= 1024 ? `${Number(kb) / 1024} MB` : `${Number(kb)} KB`,
  bytes: Number(kb) * 1024,
}));
/** Seconds of measured edits per size at most (after at least 20), so a slow size still finishes. */
const BUDGET_S = Number(process.env.FOLIO_BENCH_BUDGET ?? 300);

/** Targets of issue 12: p50 per size (ms), p99 at most twice p50. Issue 24: 8 editors ≥ 0.8× one editor's rate. */
const TARGET_P50_MS: Record<number, number> = { [100 * 1024]: 20, [1024 * 1024]: 100 };
const TARGET_EDITORS_RATIO = 0.8;

const ms = (value: number) => `${value.toFixed(1)} ms`;

/** The engine alone on the same document and edit, in this process: p50 cold (as before the cache) and cached. */
function engineAlone(markdown: string, runs: number): { cold: number; cached: number } {
  const stored = JSON.stringify(stateFromMarkdown(markdown));
  const replace = (from: string, to: string) => [
    { type: 'replace', find: `target ${from}`, with: `target ${to}` },
  ];
  const options = { mode: 'edit' as const, newThreadId: () => 't', nextRef: () => 1 };
  const cold: number[] = [];
  const cached: number[] = [];
  let document = WorkingDocument.open(JSON.parse(stored) as DocumentState);
  void document.markdown;
  let word = 'alpha';
  for (let i = 0; i < runs + 2; i++) {
    const next = word === 'alpha' ? 'beta' : 'alpha';
    const state = JSON.parse(stored.replace('target alpha', `target ${word}`)) as DocumentState;
    const t0 = performance.now();
    renderMarkdown(applyEdit(state, replace(word, next), options).state);
    const t1 = performance.now();
    document = document.edit(parseOperations(replace(word, next), 'edit'), options).document;
    void document.markdown;
    const t2 = performance.now();
    // The first two warm the code up.
    if (i >= 2) {
      cold.push(t1 - t0);
      cached.push(t2 - t1);
    }
    word = next;
  }
  cold.sort((a, b) => a - b);
  cached.sort((a, b) => a - b);
  return { cold: percentile(cold, 50), cached: percentile(cached, 50) };
}

/** "figure (target …: met / not met by …×)". */
function against(value: number, target: number, unit: string, below: boolean): string {
  const met = below ? value < target : value >= target;
  const ratio = below ? value / target : target / value;
  return `target ${below ? '<' : '≥'} ${target}${unit}: ${met ? 'met' : `not met, ${ratio.toFixed(1)}× off`}`;
}

async function ownStack() {
  return startEphemeralStack({
    label: 'bench',
    worker: false,
    env: { FOLIO_LOG_LEVEL: process.env.FOLIO_LOG_LEVEL ?? 'warn', ...profileEnv() },
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const load = () =>
  loadavg()
    .map((n) => n.toFixed(1))
    .join(' ');

async function main() {
  const stack = await ownStack();
  try {
    const knex = createDb(stack.databaseUrl);
    const workspace = await createWorkspace(knex, { name: 'bench', storageLimitBytes: 10 ** 12 });
    const user = await createUser(knex, {
      workspaceUuid: workspace.uuid,
      email: `bench-${randomBytes(4).toString('hex')}@example.test`,
    });
    const { access_token: token } = await issueAccessToken(knex, {
      workspaceUuid: workspace.uuid,
      userUuid: user.uuid,
      scopes: ['docs.read', 'docs.write'],
      expiresInMs: 3_600_000,
    });
    await knex.destroy();

    const api = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(stack.apiUrl + path, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as any };
    };

    say(
      `documents-edit benchmark — ${new Date().toISOString()}, ${cpus().length} cores, ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}; load average ${load()}`,
    );
    say(
      `${EDITS} one-operation edits per size after ${WARMUP_EDITS} of warm-up, timed at the client; ${EDITORS} editors for ${SECONDS} s per measurement, ${ROUNDS} rounds\n`,
    );
    for (const size of SIZES) {
      const created = await api('POST', '/v1/documents', { title: size.label });
      const markdown = sampleMarkdown(size.bytes);
      const set = await api('POST', `/v1/documents/${created.body.uuid}/content`, {
        operations: [{ type: 'set_document', markdown }],
      });
      if (set.status !== 200)
        throw new Error(`set_document answered ${set.status}: ${JSON.stringify(set.body).slice(0, 300)}`);
      const path = `/v1/documents/${created.body.uuid}/content`;
      let word = 'alpha';
      const latencies: number[] = [];
      const budgetEnds = performance.now() + BUDGET_S * 1000;
      for (
        let i = 0;
        i < EDITS + WARMUP_EDITS && (i < WARMUP_EDITS + 20 || performance.now() < budgetEnds);
        i++
      ) {
        const next = word === 'alpha' ? 'beta' : 'alpha';
        const started = performance.now();
        const edit = await api('POST', path, {
          operations: [{ type: 'replace', find: `target ${word}`, with: `target ${next}` }],
        });
        const elapsed = performance.now() - started;
        if (edit.status !== 200)
          throw new Error(`edit answered ${edit.status}: ${JSON.stringify(edit.body).slice(0, 300)}`);
        if (i >= WARMUP_EDITS) latencies.push(elapsed);
        word = next;
      }
      latencies.sort((a, b) => a - b);
      const p50 = percentile(latencies, 50);
      const p99 = percentile(latencies, 99);
      const engine = engineAlone(markdown, Math.min(EDITS, 20));
      const target = TARGET_P50_MS[size.bytes];
      say(
        `${size.label.padEnd(7)} (${Buffer.byteLength(markdown)} bytes), n=${latencies.length}: p50 ${ms(p50)}${target ? ` (${against(p50, target, ' ms', true)})` : ''}, ` +
          `p99 ${ms(p99)} (${(p99 / p50).toFixed(2)}× p50; target < 2×: ${p99 < 2 * p50 ? 'met' : 'not met'}), max ${ms(latencies.at(-1)!)}`,
      );
      say(
        `${''.padEnd(7)} engine alone, same run: cold ${ms(engine.cold)} (p50 is ${(p50 / engine.cold).toFixed(2)}× it), ` +
          `cached ${ms(engine.cached)} (p50 is ${(p50 / engine.cached).toFixed(1)}× it)`,
      );
    }

    // Editors on one 10 KB document, each changing a line of its own ("Editor i count n" → n + 1) for SECONDS:
    // without base_revision the service applies each edit to the document as it is, so distinct lines never conflict;
    // with it, an editor whose base moved gets 409, takes `current` and retries. The peer: one editor alone, serially,
    // without base_revision, on a document of the same kind.
    const editing = async (editors: number, withBase: boolean) => {
      const shared = await api('POST', '/v1/documents', { title: 'contended' });
      const sharedPath = `/v1/documents/${shared.body.uuid}/content`;
      const lines = Array.from({ length: editors }, (_, i) => `Editor ${i} count 0`);
      await api('POST', sharedPath, {
        operations: [
          { type: 'set_document', markdown: `${sampleMarkdown(10 * 1024)}\n\n${lines.join('\n\n')}` },
        ],
      });
      const start = (await api('GET', sharedPath)).body.revision as number;
      const deadline = performance.now() + SECONDS * 1000;
      let conflicts = 0;
      let applied = 0;
      const latencies: number[] = [];
      await Promise.all(
        Array.from({ length: editors }, async (_, editor) => {
          let count = 0;
          let revision = start;
          while (performance.now() < deadline) {
            const started = performance.now();
            const edit = await api('POST', sharedPath, {
              ...(withBase ? { base_revision: revision } : {}),
              operations: [
                {
                  type: 'replace',
                  find: `Editor ${editor} count ${count}`,
                  with: `Editor ${editor} count ${count + 1}`,
                },
              ],
            });
            latencies.push(performance.now() - started);
            if (edit.status === 200) {
              count++;
              applied++;
              revision = edit.body.revision;
            } else if (edit.status === 409 && withBase) {
              conflicts++;
              revision = edit.body.current.revision;
            } else {
              throw new Error(
                `${withBase ? '' : 'un'}based edit answered ${edit.status}: ${JSON.stringify(edit.body).slice(0, 300)}`,
              );
            }
          }
        }),
      );
      const end = (await api('GET', sharedPath)).body.revision as number;
      if (end - start !== applied)
        say(`  note: ${applied} edits answered 200 but the revision moved ${end - start}`);
      latencies.sort((a, b) => a - b);
      return { perSecond: applied / SECONDS, conflicts, p50: percentile(latencies, 50) };
    };
    const modes = {
      alone: () => editing(1, false),
      many: () => editing(EDITORS, false),
      based: () => editing(EDITORS, true),
    };
    const runs: Record<keyof typeof modes, Awaited<ReturnType<typeof editing>>[]> = {
      alone: [],
      many: [],
      based: [],
    };
    // Each mode first, middle and last in turn.
    const orders: (keyof typeof modes)[][] = [
      ['alone', 'many', 'based'],
      ['many', 'based', 'alone'],
      ['based', 'alone', 'many'],
    ];
    for (let round = 0; round < ROUNDS; round++) {
      for (const mode of orders[round % orders.length]!) runs[mode].push(await modes[mode]());
      say(
        `  round ${round + 1}: one editor ${runs.alone.at(-1)!.perSecond.toFixed(1)}/s, ${EDITORS} editors ${runs.many.at(-1)!.perSecond.toFixed(1)}/s, ` +
          `${EDITORS} with base_revision ${runs.based.at(-1)!.perSecond.toFixed(1)}/s (${runs.based.at(-1)!.conflicts} conflicts); load average ${load()}`,
      );
    }
    const rateOf = (mode: keyof typeof modes) => median(runs[mode].map((run) => run.perSecond));
    const roundsOf = (mode: keyof typeof modes) =>
      runs[mode].map((run) => run.perSecond.toFixed(1)).join(', ');
    const p50Of = (mode: keyof typeof modes) => median(runs[mode].map((run) => run.p50));
    const ratio = rateOf('many') / rateOf('alone');
    say(
      `one editor alone, serial, one 10 KB document: ${rateOf('alone').toFixed(1)} revisions/s (rounds ${roundsOf('alone')}), p50 ${ms(p50Of('alone'))}`,
    );
    say(
      `${EDITORS} editors, one document, without base_revision (distinct lines): ${rateOf('many').toFixed(1)} revisions/s (rounds ${roundsOf('many')}), p50 ${ms(p50Of('many'))} ` +
        `→ ${ratio.toFixed(2)}× one editor (target ≥ ${TARGET_EDITORS_RATIO}×: ${ratio >= TARGET_EDITORS_RATIO ? 'met' : 'not met'})`,
    );
    say(
      `${EDITORS} editors with base_revision, retrying on 409: ${rateOf('based').toFixed(1)} revisions/s (rounds ${roundsOf('based')}), ` +
        `${median(runs.based.map((run) => run.conflicts))} conflicts retried (median) → ${(rateOf('based') / rateOf('alone')).toFixed(2)}× one editor`,
    );
    say(`load average at end ${load()}`);
  } finally {
    await stack.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
