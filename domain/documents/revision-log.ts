// The revision log (document_revisions): what each revision changed, with a full snapshot now and then, so that any
// revision can be read back while a small edit of a large document stores about the size of the edit. It is also
// where the current state is kept (db/migrations/018): the current revision rebuilt, when the API's cache of parsed
// documents does not hold it. See docs/documents-api.md § Revisions, edits and batches.
//
// A row is `state` (a full snapshot, or null) followed by `delta`, a list of steps applied in order. A step is a
// block-level diff of the engine state (splices of the document's top-level blocks and of the thread anchors, plus the
// rest of the state when that changed) or, rarely, a whole state. Revision r is rebuilt from its row's
// `snapshot_revision` (the nearest row at or before r that has a snapshot), applying the steps of every row up to r.
// Revision 1 is a snapshot; snapshotDue says when the next ones are.
//
// Comment anchors change the state without a new revision (storeStateInPlace): such a change is appended as one more
// step to the row of the current revision, so reading revision r gives the document as it last stood at r, and
// reading the current revision gives the current state, the base every new revision's diff is taken against.
import type { Knex } from 'knex';
import type { DocumentState, NodeJSON } from '../document-engine/state.js';
import { reserveStorage } from '../storage-pool.js';
import { storageFull } from './errors.js';

/** Where a row stands: the snapshot row it is rebuilt from, and the bytes of steps stored since it, its own included. */
export interface Chain {
  snapshotRevision: number;
  bytes: number;
}

/** Replace `remove` items of the old array, starting at index `at` of the old array, with `insert`. */
export interface Splice {
  at: number;
  remove: number;
  insert: unknown[];
}

/** Everything in a state but its top-level blocks and its thread anchors (the document node's type and attrs, version). */
type StateShell = Omit<DocumentState, 'doc' | 'threads'> & { doc: Omit<NodeJSON, 'content'> };

/** One change of the state. Absent parts are unchanged; splices are sorted and do not overlap. */
export interface StateDiff {
  blocks?: Splice[];
  threads?: Splice[];
  rest?: StateShell;
}

export type RevisionStep = StateDiff | { state: DocumentState };

/** A row of the log as stored. */
export interface RevisionRow {
  revision: number;
  state: DocumentState | null;
  delta: RevisionStep[];
}

/**
 * Structural equality of two JSON values: JSONB does not keep key order, and ProseMirror's attrs have no prototype.
 * A key holding undefined counts as absent (JSON drops it). Loops without allocating: it walks whole documents.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  const isArray = Array.isArray(a);
  if (isArray !== Array.isArray(b)) return false;
  if (isArray) {
    const left = a as unknown[];
    const right = b as unknown[];
    if (left.length !== right.length) return false;
    for (let i = 0; i < left.length; i++) if (!sameJson(left[i], right[i])) return false;
    return true;
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  let keys = 0;
  for (const key in left) {
    const value = left[key];
    if (value === undefined) continue;
    keys++;
    if (!sameJson(value, right[key])) return false;
  }
  for (const key in right) if (right[key] !== undefined) keys--;
  return keys === 0;
}

// The JSON text of each block of a state, by its JSON object: blocks an edit kept share their objects with the state
// before it (document-engine blockJson), so writing a state stringifies only the blocks that changed.
const blockTexts = new WeakMap<object, string>();

const blockBytes = new WeakMap<object, number>();

function blockText(block: object): string {
  let text = blockTexts.get(block);
  if (text === undefined) {
    text = JSON.stringify(block);
    blockTexts.set(block, text);
  }
  return text;
}

/** JSON.stringify(state), each block's text written once per block object. No one may change a state's JSON once made. */
export function stateJson(state: DocumentState): string {
  const blocks = state.doc.content;
  if (!blocks) return JSON.stringify(state);
  const texts = blocks.map(blockText);
  const member = (key: string, value: unknown) =>
    value === undefined ? [] : [`${JSON.stringify(key)}:${JSON.stringify(value)}`];
  const { content: _content, ...docShell } = state.doc;
  const doc = `{${[...Object.entries(docShell).flatMap(([key, value]) => member(key, value)), `"content":[${texts.join(',')}]`].join(',')}}`;
  const { doc: _doc, ...rest } = state;
  return `{${[...Object.entries(rest).flatMap(([key, value]) => member(key, value)), `"doc":${doc}`].join(',')}}`;
}

/** Buffer.byteLength(stateJson(state)), without writing the whole text: each block's bytes are counted once. */
export function stateBytes(state: DocumentState): number {
  const blocks = state.doc.content;
  if (!blocks) return Buffer.byteLength(JSON.stringify(state), 'utf8');
  let bytes = Buffer.byteLength(JSON.stringify({ ...state, doc: { ...state.doc, content: [] } }), 'utf8');
  for (const block of blocks) {
    let size = blockBytes.get(block);
    if (size === undefined) {
      size = Buffer.byteLength(blockText(block), 'utf8');
      blockBytes.set(block, size);
    }
    bytes += size;
  }
  // The commas between blocks.
  return bytes + Math.max(0, blocks.length - 1);
}

/** JSON with object keys sorted, so equal values read from JSONB and built by the engine give the same string. */
function canonicalJson(value: unknown): string {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, item]) => item !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
}

/**
 * Pairs (i, j) of items that occur exactly once in `a` and once in `b` with a[i] = b[j], keeping the longest run in
 * which both indices increase (patience diff's anchors). Unique items are the paragraphs of a document; repeated
 * ones (empty paragraphs, rules) would pair with a far-away twin and turn a small change into a large one.
 */
function uniqueAnchors(a: readonly string[], b: readonly string[]): Array<[number, number]> {
  const where = (keys: readonly string[]) => {
    const seen = new Map<string, number>();
    keys.forEach((key, index) => seen.set(key, seen.has(key) ? -1 : index));
    return seen;
  };
  const inA = where(a);
  const inB = where(b);
  const pairs: Array<[number, number]> = [];
  for (const [key, i] of inA) {
    const j = inB.get(key);
    if (i >= 0 && j !== undefined && j >= 0) pairs.push([i, j]);
  }
  pairs.sort((x, y) => x[0] - y[0]);
  // Longest increasing subsequence of j, in n log n: tails[k] ends the best run of length k + 1.
  const tails: number[] = [];
  const previous: number[] = [];
  pairs.forEach(([, j], p) => {
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (pairs[tails[mid]!]![1] < j) lo = mid + 1;
      else hi = mid;
    }
    previous[p] = lo > 0 ? tails[lo - 1]! : -1;
    tails[lo] = p;
  });
  const run: Array<[number, number]> = [];
  for (let p = tails.length ? tails[tails.length - 1]! : -1; p >= 0; p = previous[p]!) run.push(pairs[p]!);
  return run.reverse();
}

/** The splices that turn `a` into `b`: equal ends are skipped, then the middle is cut at its unique common items. */
export function diffSequence(a: readonly unknown[], b: readonly unknown[]): Splice[] {
  let start = 0;
  while (start < a.length && start < b.length && sameJson(a[start], b[start])) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && sameJson(a[endA - 1], b[endB - 1])) {
    endA--;
    endB--;
  }
  if (start === endA && start === endB) return [];
  const keysA = a.slice(start, endA).map(canonicalJson);
  const keysB = b.slice(start, endB).map(canonicalJson);
  const splices: Splice[] = [];
  let i = 0;
  let j = 0;
  for (const [anchorA, anchorB] of [...uniqueAnchors(keysA, keysB), [keysA.length, keysB.length] as const]) {
    let from = 0;
    while (i + from < anchorA && j + from < anchorB && keysA[i + from] === keysB[j + from]) from++;
    let to = 0;
    while (
      anchorA - to > i + from &&
      anchorB - to > j + from &&
      keysA[anchorA - to - 1] === keysB[anchorB - to - 1]
    )
      to++;
    if (anchorA - to > i + from || anchorB - to > j + from) {
      splices.push({
        at: start + i + from,
        remove: anchorA - to - (i + from),
        insert: b.slice(start + j + from, start + anchorB - to),
      });
    }
    i = anchorA + 1;
    j = anchorB + 1;
  }
  return splices;
}

export function applySplices<T>(items: readonly T[], splices: readonly Splice[]): T[] {
  let out: T[] = [];
  let position = 0;
  for (const splice of splices) {
    out = out.concat(items.slice(position, splice.at), splice.insert as T[]);
    position = splice.at + splice.remove;
  }
  return out.concat(items.slice(position));
}

function shellOf(state: DocumentState): StateShell {
  const { content: _content, ...doc } = state.doc;
  const { doc: _doc, threads: _threads, ...rest } = state;
  return { ...rest, doc };
}

/** A state from its parts; an empty document has no `content`, as ProseMirror's toJSON writes it. */
function assemble(shell: StateShell, blocks: NodeJSON[], threads: DocumentState['threads']): DocumentState {
  return { ...shell, doc: blocks.length ? { ...shell.doc, content: blocks } : { ...shell.doc }, threads };
}

/** What changed from `from` to `to`; `{}` when nothing did. */
export function diffStates(from: DocumentState, to: DocumentState): StateDiff {
  const diff: StateDiff = {};
  const blocks = diffSequence(from.doc.content ?? [], to.doc.content ?? []);
  if (blocks.length) diff.blocks = blocks;
  const threads = diffSequence(from.threads, to.threads);
  if (threads.length) diff.threads = threads;
  const rest = shellOf(to);
  if (!sameJson(shellOf(from), rest)) diff.rest = rest;
  return diff;
}

export const isEmptyDiff = (step: RevisionStep) =>
  !('state' in step) && !step.blocks && !step.threads && !step.rest;

export function applyStep(state: DocumentState, step: RevisionStep): DocumentState {
  if ('state' in step) return step.state;
  const blocks = step.blocks ? applySplices(state.doc.content ?? [], step.blocks) : (state.doc.content ?? []);
  const threads = step.threads ? applySplices(state.threads, step.threads) : state.threads;
  return assemble(step.rest ?? shellOf(state), blocks, threads);
}

/** The state after the last of `rows`: the first must hold a snapshot; every row's steps apply in order. */
export function rebuildState(rows: readonly Pick<RevisionRow, 'state' | 'delta'>[]): DocumentState {
  const first = rows[0];
  if (!first?.state) throw new Error('The revision log has no snapshot to rebuild from.');
  let state = first.state;
  for (const [index, row] of rows.entries()) {
    if (index > 0 && row.state) state = row.state;
    for (const step of row.delta) state = applyStep(state, step);
  }
  return state;
}

/**
 * Whether a new revision is stored as a snapshot rather than a diff: when its diff is at least half the state (a
 * set_document of another text; the snapshot then costs at most twice the diff and starts a fresh chain), or once
 * the diffs stored since the last snapshot, this one included, add up to the state's size. So a snapshot never costs
 * more than the diffs it follows: the log grows by at most about twice the size of the changes, however large the
 * document, and reading any revision reads at most about two states' worth.
 */
export const snapshotDue = (chain: Chain, diffBytes: number, stateBytes: number) =>
  2 * diffBytes >= stateBytes || chain.bytes + diffBytes >= stateBytes;

/**
 * The columns of a new revision's row after a row at `chain`, and its size: the UTF-8 bytes of the JSON it stores.
 * The whole state is written out only for a snapshot.
 */
export function revisionEntry(
  revision: number,
  chain: Chain,
  previous: DocumentState,
  next: DocumentState,
): { state: string | null; delta: string; bytes: number; diffBytes: number; chain: Chain } {
  const diff = JSON.stringify([diffStates(previous, next)]);
  const diffBytes = Buffer.byteLength(diff, 'utf8');
  const nextBytes = stateBytes(next);
  if (snapshotDue(chain, diffBytes, nextBytes)) {
    return {
      state: stateJson(next),
      delta: '[]',
      bytes: nextBytes,
      diffBytes,
      chain: { snapshotRevision: revision, bytes: 0 },
    };
  }
  return {
    state: null,
    delta: diff,
    bytes: diffBytes,
    diffBytes,
    chain: { snapshotRevision: chain.snapshotRevision, bytes: chain.bytes + diffBytes },
  };
}

/**
 * Whether a change is charged to the pool. Taking something out (deleting a suggestion or a comment) is recorded but
 * never charged, so a full workspace can always clean up; it records at most about what adding it was charged.
 */
export type Charge = 'charged' | 'free';

/**
 * Adds the row of a new revision (not the first: createDocument writes that one, uncounted). Returns the bytes to
 * charge to the workspace's pool with chargeRevisionLog, which the caller does last (see there).
 * `previous` is the current state before the change.
 */
export async function appendRevision(
  tx: Knex.Transaction,
  document: { uuid: string },
  revision: number,
  previous: DocumentState,
  next: DocumentState,
  details: { cause: string; authorUuid: string; batchId?: string; charge: Charge },
): Promise<number> {
  const before = await tx('document_revisions')
    .where({ document_uuid: document.uuid, revision: revision - 1 })
    .first('snapshot_revision', 'chain_bytes');
  const chain = { snapshotRevision: before.snapshot_revision as number, bytes: Number(before.chain_bytes) };
  const entry = revisionEntry(revision, chain, previous, next);
  const charged = details.charge === 'charged' ? entry.bytes : 0;
  await tx('document_revisions').insert({
    document_uuid: document.uuid,
    revision,
    cause: details.cause,
    state: entry.state,
    delta: entry.delta,
    snapshot_revision: entry.chain.snapshotRevision,
    chain_bytes: entry.chain.bytes,
    charged_bytes: charged,
    author_uuid: details.authorUuid,
    batch_id: details.batchId ?? null,
  });
  return charged;
}

/**
 * Records a change made at the current revision (comment anchors) as one more step of that revision's row. Returns
 * the bytes to charge, as appendRevision. Nothing is written when nothing changed.
 */
export async function amendRevision(
  tx: Knex.Transaction,
  document: { uuid: string; revision: number },
  previous: DocumentState,
  next: DocumentState,
  charge: Charge,
): Promise<number> {
  const diff = diffStates(previous, next);
  if (isEmptyDiff(diff)) return 0;
  const step = JSON.stringify([diff]);
  const bytes = Buffer.byteLength(step, 'utf8');
  const charged = charge === 'charged' ? bytes : 0;
  await tx('document_revisions')
    .where({ document_uuid: document.uuid, revision: document.revision })
    .update({
      delta: tx.raw('delta || ?::jsonb', [step]),
      chain_bytes: tx.raw('chain_bytes + ?', [bytes]),
      charged_bytes: tx.raw('charged_bytes + ?', [charged]),
    });
  return charged;
}

/**
 * Reserves what a write added to the log in the workspace's storage pool, or throws 422 storage_limit_exceeded and
 * the write's transaction rolls back whole. Call it as the write's last statement: the reservation locks the
 * workspace row until the commit, and every write in the workspace (other documents, Drive uploads) waits on it.
 */
export async function chargeRevisionLog(
  tx: Knex.Transaction,
  document: { workspace_uuid: string },
  bytes: number,
): Promise<void> {
  await reserveStorage(tx, document.workspace_uuid, bytes, storageFull);
}

/**
 * The engine state of a document at `revision` (as it last stood at that revision), rebuilt from the nearest snapshot
 * at or before it; undefined when the document has no such revision.
 */
export async function readRevisionState(
  knex: Knex,
  documentUuid: string,
  revision: number,
): Promise<DocumentState | undefined> {
  const target = await knex('document_revisions')
    .where({ document_uuid: documentUuid, revision })
    .first('snapshot_revision');
  if (!target) return undefined;
  const rows = (await knex('document_revisions')
    .where({ document_uuid: documentUuid })
    .whereBetween('revision', [target.snapshot_revision as number, revision])
    .orderBy('revision')
    .select('revision', 'state', 'delta')) as RevisionRow[];
  return rebuildState(rows);
}

/** Bytes the log of a document was charged in its workspace's pool: what its purge gives back. */
export async function revisionLogBytes(knex: Knex, documentUuid: string): Promise<number> {
  const row = await knex('document_revisions')
    .where({ document_uuid: documentUuid })
    .sum({ bytes: 'charged_bytes' })
    .first();
  return Number(row?.bytes ?? 0);
}
