// The writer's caches of top-level blocks already written: by node, by content across requests, and their units.
import { LRUCache } from 'lru-cache';
import type { Node as PMNode } from 'prosemirror-model';
import type { TextUnit } from './markdown-units.js';

// Top-level blocks a document shares with an earlier version (ProseMirror keeps unchanged nodes) are written
// once: an edit of many operations serializes the document once per operation to match quotes. Only the text is
// kept; a block's units (one per character) are written again when a quote needs them.
const blockTexts = new WeakMap<PMNode, { signature: string; text: string }>();
const blockUnits = new WeakMap<PMNode, { signature: string | undefined; units: TextUnit[] }>();

// Blocks equal in content (a document read again from its stored JSON has new nodes but the same blocks) are
// found by their JSON, least recently used first out, up to a bound on the characters kept.
const CONTENT_CACHE_CHARS = 32_000_000;
const CONTENT_BLOCK_MIN_CHARS = 64;
const byContent = new LRUCache<string, string>({
  maxSize: CONTENT_CACHE_CHARS,
  maxEntrySize: CONTENT_CACHE_CHARS / 4,
  sizeCalculation: (text, key) => key.length + text.length,
});

// The stored JSON a top-level block was read from (see toWorking): writing it is cheaper than writing the node's own
// JSON, and equal JSON reads as equal nodes, so it names the block's content as well.
const sourceJson = new WeakMap<PMNode, object>();

/**
 * Records the stored JSON each top-level block of a document was just read from. The caller keeps the nodes only for
 * a synchronous call, so the JSON cannot change while they are in use.
 */
export function rememberSources(doc: PMNode, content: unknown): void {
  if (!Array.isArray(content) || content.length !== doc.childCount) return;
  doc.forEach((child, _offset, index) => {
    const json: unknown = content[index];
    if (typeof json === 'object' && json !== null) sourceJson.set(child, json);
  });
}

/**
 * The JSON of a top-level block for a state: the JSON it was read from or last written as, else its own toJSON()
 * (remembered). Blocks an edit keeps are the same nodes, so the new state shares their JSON objects with the old one:
 * writing a state costs the blocks changed, and comparing two states (sameJson, the revision log's diff) finds the
 * kept blocks identical at once. No one may change a state's JSON once made.
 */
export function blockJson(block: PMNode): object {
  let json = sourceJson.get(block);
  if (!json) {
    json = block.toJSON() as object;
    sourceJson.set(block, json);
  }
  return json;
}

/** The markdown of a top-level block written under `signature`: from a cache, or `write` it and keep the text. */
export function cachedBlockText(block: PMNode, signature: string, write: () => string): string {
  const hit = blockTexts.get(block);
  if (hit && hit.signature === signature) return hit.text;
  const json = JSON.stringify(sourceJson.get(block) ?? block);
  const key = json.length >= CONTENT_BLOCK_MIN_CHARS ? `${signature}\u0000${json}` : null;
  let text = key === null ? undefined : byContent.get(key);
  if (text === undefined) {
    text = write();
    if (key !== null) byContent.set(key, text);
  }
  blockTexts.set(block, { signature, text });
  return text;
}

/** The units of a top-level block written before under the same (defined) signature, if they are kept. */
export function cachedBlockUnits(block: PMNode, signature: string | undefined): TextUnit[] | undefined {
  const hit = blockUnits.get(block);
  return hit && hit.signature !== undefined && hit.signature === signature ? hit.units : undefined;
}

/** Keeps the units of a top-level block just written, for the quotes that need them again. */
export function keepBlockUnits(block: PMNode, signature: string | undefined, units: TextUnit[]): void {
  blockUnits.set(block, { signature, units });
}
