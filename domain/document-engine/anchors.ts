// Where an insert lands: a quote's top-level block, heading:<Title>, section:<Title>, start or end.
import type { Node as PMNode } from 'prosemirror-model';
import { targetAmbiguous, targetNotFound } from './errors.js';
import type { InsertOperation } from './operations.js';
import { matchQuote, MAX_CANDIDATES, type Occurrence } from './quotes.js';
import { nodes } from './schema.js';
import { serializeWorking, type Working } from './state.js';

export interface Anchor {
  /** Where blocks go: between top-level blocks. */
  block: number;
  /** Where list items go instead, when the anchor is inside a list item: beside that item. */
  listItem: number | null;
}

export function anchorFor(working: Working, op: InsertOperation, index: number): Anchor {
  const after = op.after !== undefined;
  const anchor = (op.after ?? op.before)!;
  const { doc } = working;
  if (anchor === 'start') return { block: 0, listItem: null };
  if (anchor === 'end') return { block: doc.content.size, listItem: null };

  const heading = /^(heading|section):(.*)$/s.exec(anchor);
  if (heading) {
    const found = findHeading(doc, heading[2]!.trim(), op.occurrence, index);
    const top = topLevelBlock(doc, found.pos);
    if (heading[1] === 'heading' || !after) return { block: after ? top.end : top.start, listItem: null };
    return { block: sectionEnd(doc, top, found.node), listItem: null };
  }

  const match = matchQuote(
    doc,
    serializeWorking(working),
    { find: anchor, occurrence: op.occurrence },
    index,
  );
  const top = topLevelBlock(doc, match.from);
  const $pos = doc.resolve(match.from);
  let listItem: number | null = null;
  for (let depth = $pos.depth; depth > 0; depth--) {
    if ($pos.node(depth).type === nodes.list_item) {
      listItem = after ? $pos.after(depth) : $pos.before(depth);
      break;
    }
  }
  return { block: after ? top.end : top.start, listItem };
}

/** The top-level block holding a position: its start and end positions. */
function topLevelBlock(doc: PMNode, pos: number): { start: number; end: number; index: number } {
  const $pos = doc.resolve(pos);
  const index = $pos.index(0);
  let start = 0;
  for (let i = 0; i < index; i++) start += doc.child(i).nodeSize;
  const node = doc.maybeChild(index);
  return { start, end: start + (node?.nodeSize ?? 0), index };
}

/** The end of a heading's section: just before the next top-level heading as high or higher, or the document end. */
function sectionEnd(doc: PMNode, top: { end: number; index: number }, heading: PMNode): number {
  const level = heading.attrs.level as number;
  let pos = top.end;
  for (let i = top.index + 1; i < doc.childCount; i++) {
    const block = doc.child(i);
    if (block.type === nodes.heading && (block.attrs.level as number) <= level) return pos;
    pos += block.nodeSize;
  }
  return pos;
}

function findHeading(
  doc: PMNode,
  title: string,
  occurrence: Occurrence | undefined,
  index: number,
): { node: PMNode; pos: number } {
  const headings: Array<{ node: PMNode; pos: number }> = [];
  doc.descendants((node, pos) => {
    if (node.type === nodes.heading) headings.push({ node, pos });
    return !node.isTextblock;
  });
  const norm = (text: string) => text.replace(/\s+/g, ' ').trim();
  let found = headings.filter((h) => norm(h.node.textContent) === norm(title));
  if (found.length === 0)
    found = headings.filter((h) => norm(h.node.textContent).toLowerCase() === norm(title).toLowerCase());
  if (found.length === 0) throw targetNotFound(index, `No heading reads ${JSON.stringify(title)}.`);
  if (occurrence === 'first') return found[0]!;
  if (occurrence === 'last') return found[found.length - 1]!;
  if (typeof occurrence === 'number') {
    const pick = found[occurrence - 1];
    if (!pick)
      throw targetNotFound(
        index,
        `occurrence ${occurrence} was asked for, but ${found.length} heading(s) read ${JSON.stringify(title)}.`,
      );
    return pick;
  }
  if (found.length > 1) {
    throw targetAmbiguous(
      found.slice(0, MAX_CANDIDATES).map((h, i) => ({
        occurrence: i + 1,
        snippet: `${'#'.repeat(h.node.attrs.level as number)} ${h.node.textContent}`,
      })),
      index,
      found.length,
    );
  }
  return found[0]!;
}
