// Benchmark: server-side latency of a one-operation edit on documents of 10 KB, 100 KB and 1 MB of markdown, and
// revisions per second on one document under concurrent editors that send base_revision and retry on 409.
// Each figure is printed beside its target (issue 12) and a peer measured in the same run: for an edit, the engine
// alone in this process on the same document and edit, cold (parsed from the stored JSON, as before the
// working-document cache) and cached (WorkingDocument.edit, what the API now does); for the editors, one editor alone.
//
//   node --import tsx bench/documents-edit.ts
//
// Starts its own throw-away stack the way the integration tests do (a fresh PostgreSQL database, in-memory
// Temporal, MinIO, the API as its own process; no worker) and removes it afterwards. Server-side latency is the
// duration the API logs for each request (from the request's arrival to its last byte), so the client and the
// loopback are not counted. FOLIO_BENCH_EDITS (default 100) edits per size, FOLIO_BENCH_EDITORS (default 8)
// concurrent editors for FOLIO_BENCH_SECONDS (default 10) seconds; FOLIO_BENCH_SIZES (KB, default 10,100,1024) and
// FOLIO_BENCH_BUDGET (seconds of edits per size, default 300) bound the run. FOLIO_BENCH_CPU_PROF=<dir> profiles the
// API process (bench/cpu-profile.mjs) into that directory; the profile is written when the stack stops it.
import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
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

const EDITS = Number(process.env.FOLIO_BENCH_EDITS ?? 100);
const EDITORS = Number(process.env.FOLIO_BENCH_EDITORS ?? 8);
const SECONDS = Number(process.env.FOLIO_BENCH_SECONDS ?? 10);
/** Document sizes in KB (FOLIO_BENCH_SIZES, default 10,100,1024). */
const SIZES = (process.env.FOLIO_BENCH_SIZES ?? '10,100,1024').split(',').map((kb) => ({
  label: Number(kb) >= 1024 ? `${Number(kb) / 1024} MB` : `${Number(kb)} KB`,
  bytes: Number(kb) * 1024,
}));
/** Seconds of measured edits per size at most (after at least 5), so a slow size still finishes. */
const BUDGET_S = Number(process.env.FOLIO_BENCH_BUDGET ?? 300);

/** Targets of issue 12: server-side p50 per size (ms), p99 at most twice p50, and revisions/s under 8 editors. */
const TARGET_P50_MS: Record<number, number> = { [100 * 1024]: 20, [1024 * 1024]: 100 };
const TARGET_REVISIONS_PER_S = 100;

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

interface Stack {
  apiUrl: string;
  databaseUrl: string;
  apiLog: string;
  stop(): Promise<void>;
}

async function ownStack(): Promise<Stack> {
  // The request log lines carry the server-side durations this benchmark reads.
  const stack = await startEphemeralStack({
    label: 'bench',
    worker: false,
    env: { FOLIO_LOG_LEVEL: 'info', ...profileEnv() },
  });
  return { ...stack, apiLog: join(stack.root, 'api.log') };
}

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

    const api = async (method: string, path: string, body?: unknown, requestId?: string) => {
      const response = await fetch(stack.apiUrl + path, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          ...(requestId ? { 'x-request-id': requestId } : {}),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as any };
    };

    say(
      `documents-edit benchmark: ${EDITS} one-operation edits per size; ${EDITORS} editors for ${SECONDS}s on one document`,
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
      const client: number[] = [];
      const budgetEnds = performance.now() + BUDGET_S * 1000;
      for (let i = 0; i < EDITS + 5 && (i < 10 || performance.now() < budgetEnds); i++) {
        const next = word === 'alpha' ? 'beta' : 'alpha';
        const started = performance.now();
        // Warm-up edits are not tagged; measured ones carry a request id the log line repeats.
        const requestId = i >= 5 ? `bench-${size.bytes}-${i}` : undefined;
        const edit = await api(
          'POST',
          path,
          { operations: [{ type: 'replace', find: `target ${word}`, with: `target ${next}` }] },
          requestId,
        );
        if (edit.status !== 200)
          throw new Error(`edit answered ${edit.status}: ${JSON.stringify(edit.body).slice(0, 300)}`);
        if (i >= 5) client.push(performance.now() - started);
        word = next;
      }
      // The API writes one log line per request when it ends; give the last one a moment to land.
      await new Promise((resolve) => setTimeout(resolve, 300));
      const server = readFileSync(stack.apiLog, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { msg?: string; request_id?: string; duration_ms?: number })
        .filter((line) => line.msg === 'request' && line.request_id?.startsWith(`bench-${size.bytes}-`))
        .map((line) => line.duration_ms!)
        .sort((a, b) => a - b);
      client.sort((a, b) => a - b);
      const p50 = percentile(server, 50);
      const p99 = percentile(server, 99);
      const engine = engineAlone(markdown, Math.min(EDITS, 20));
      const target = TARGET_P50_MS[size.bytes];
      say(
        `${size.label.padEnd(7)} (${Buffer.byteLength(markdown)} bytes): server p50 ${p50} ms${target ? ` (${against(p50, target, ' ms', true)})` : ''}, ` +
          `p99 ${p99} ms (${(p99 / p50).toFixed(2)}× p50; target < 2×: ${p99 < 2 * p50 ? 'met' : 'not met'}) (n=${server.length}); ` +
          `client p50 ${ms(percentile(client, 50))}, p99 ${ms(percentile(client, 99))}`,
      );
      say(
        `${''.padEnd(7)} engine alone, same run: cold ${ms(engine.cold)} (server p50 is ${(p50 / engine.cold).toFixed(2)}× it), ` +
          `cached ${ms(engine.cached)} (server p50 is ${(p50 / engine.cached).toFixed(1)}× it)`,
      );
    }

    // Concurrent editors on one 10 KB document: read, edit with base_revision, on 409 take current and retry. The
    // peer: one editor alone on a document of its own for the same time.
    const contended = async (editors: number) => {
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
      await Promise.all(
        Array.from({ length: editors }, async (_, editor) => {
          let count = 0;
          let revision = start;
          while (performance.now() < deadline) {
            const edit = await api('POST', sharedPath, {
              base_revision: revision,
              operations: [
                {
                  type: 'replace',
                  find: `Editor ${editor} count ${count}`,
                  with: `Editor ${editor} count ${count + 1}`,
                },
              ],
            });
            if (edit.status === 200) {
              count++;
              applied++;
              revision = edit.body.revision;
            } else if (edit.status === 409) {
              conflicts++;
              revision = edit.body.current.revision;
            } else {
              throw new Error(
                `contended edit answered ${edit.status}: ${JSON.stringify(edit.body).slice(0, 300)}`,
              );
            }
          }
        }),
      );
      const end = (await api('GET', sharedPath)).body.revision as number;
      return { perSecond: (end - start) / SECONDS, applied, conflicts };
    };
    const alone = await contended(1);
    const many = await contended(EDITORS);
    say(
      `${EDITORS} concurrent editors, one 10 KB document, ${SECONDS}s: ${many.perSecond.toFixed(1)} revisions/s ` +
        `(${against(many.perSecond, TARGET_REVISIONS_PER_S, '/s', false)}), ${many.applied} applied, ${many.conflicts} conflicts retried; ` +
        `one editor alone, same run: ${alone.perSecond.toFixed(1)}/s (${(many.perSecond / alone.perSecond).toFixed(2)}× it)`,
    );
  } finally {
    await stack.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
