// The entity-tag lists of If-Match and If-None-Match (RFC 9110 § 8.8.3, § 13.1.1) and the item ETag they are held to.
import { describe, expect, it } from 'vitest';
import { noneMatch, parseEntityTags } from '../../../api/middleware/conditional.js';
import { contentTag, itemEtag, presentFolder } from '../../../api/presenters/drive.js';
import type { VisibleItem } from '../../../domain/drive/rows.js';

describe('parseEntityTags', () => {
  it('reads *, one tag, a list (empty elements allowed), weak tags and a comma inside the quotes', () => {
    expect(parseEntityTags('*')).toBe('*');
    expect(parseEntityTags(' * ')).toBe('*');
    expect(parseEntityTags('"a"')).toEqual([{ weak: false, opaque: '"a"' }]);
    expect(parseEntityTags('"a", W/"b" ,,"c"')).toEqual([
      { weak: false, opaque: '"a"' },
      { weak: true, opaque: '"b"' },
      { weak: false, opaque: '"c"' },
    ]);
    expect(parseEntityTags('"a,b"')).toEqual([{ weak: false, opaque: '"a,b"' }]);
    expect(parseEntityTags('""')).toEqual([{ weak: false, opaque: '""' }]);
  });

  it('refuses anything else', () => {
    for (const header of [
      'a',
      '"a',
      'a"',
      '"a" "b"',
      '*, "a"',
      '"a", *',
      'w/"a"',
      'W/',
      '"a"b',
      ',',
      ' ',
      '"a\\"b"',
      '"tab\t"',
    ]) {
      expect(parseEntityTags(header), header).toBeUndefined();
    }
  });
});

describe('noneMatch', () => {
  it('compares weakly and ignores a malformed value', () => {
    expect(noneMatch('"x"', '"x"')).toBe(true);
    expect(noneMatch('W/"x"', '"x"')).toBe(true);
    expect(noneMatch('"y", "x"', '"x"')).toBe(true);
    expect(noneMatch('*', '"x"')).toBe(true);
    expect(noneMatch('"y"', '"x"')).toBe(false);
    expect(noneMatch('x', '"x"')).toBe(false);
    expect(noneMatch('', '"x"')).toBe(false);
  });
});

describe('itemEtag', () => {
  const now = new Date('2024-01-01T00:00:00Z');
  const folder = {
    uuid: '3f1c2f8e-7b6a-4c1e-9a8f-1b2c3d4e5f60',
    kind: 'folder',
    parent_uuid: null,
    name: 'Notes',
    color: null,
    trashed: false,
    version: 7,
    ctag: 0,
    created_at: now,
    updated_at: now,
    my_role: 'owner',
    shared: false,
    owner_uuid: '3f1c2f8e-7b6a-4c1e-9a8f-1b2c3d4e5f61',
    owner_first_name: 'Ada',
    owner_last_name: null,
  } as unknown as VisibleItem;
  const etag = (item: VisibleItem, caller = folder.owner_uuid) => itemEtag(presentFolder(item, caller));

  it('is a quoted strong tag that starts with the version and changes with anything the caller is answered', () => {
    expect(etag(folder)).toMatch(/^"7-[A-Za-z0-9_-]{16}"$/);
    expect(etag(folder)).toBe(etag({ ...folder }));
    const changed = [
      { ...folder, version: 8 },
      { ...folder, name: 'Other' },
      { ...folder, trashed: true },
      { ...folder, owner_first_name: 'Grace' },
      { ...folder, my_role: 'editor' as const },
    ];
    for (const item of changed) expect(etag(item)).not.toBe(etag(folder));
    // Another caller sees owner.self false: another representation, another tag.
    expect(etag(folder, '3f1c2f8e-7b6a-4c1e-9a8f-1b2c3d4e5f62')).not.toBe(etag(folder));
    expect(parseEntityTags(etag(folder))).toEqual([{ weak: false, opaque: etag(folder) }]);
  });

  it('never takes the form of a content tag', () => {
    expect(contentTag(3)).toBe('"ctag-3"');
    expect(etag(folder).startsWith('"ctag-')).toBe(false);
  });
});
