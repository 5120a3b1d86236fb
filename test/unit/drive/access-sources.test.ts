// The move rule's comparison: does the chain an item enters give anyone more than the chain it leaves?
import { describe, expect, it } from 'vitest';
import {
  userPrincipal as user,
  widensAccess,
  type ChainAccess,
} from '../../../domain/drive/access-sources.js';

const chain = (entries: [string, number][]): ChainAccess =>
  new Map(entries.map(([who, rank]) => [who === 'workspace' ? 'workspace' : user(who), rank]));

describe('widensAccess', () => {
  it('is false when the new chain gives everyone at most what the old one did', () => {
    expect(
      widensAccess(
        chain([
          ['alice', 4],
          ['bob', 3],
        ]),
        chain([['alice', 4]]),
        'alice',
      ),
    ).toBe(false);
    expect(
      widensAccess(
        chain([
          ['alice', 4],
          ['bob', 3],
        ]),
        chain([
          ['alice', 4],
          ['bob', 2],
        ]),
        'alice',
      ),
    ).toBe(false);
    expect(widensAccess(chain([]), chain([]), 'alice')).toBe(false);
  });

  it('is true when someone reaches the item who did not, or reaches it with a higher role', () => {
    expect(
      widensAccess(
        chain([
          ['alice', 4],
          ['bob', 3],
        ]),
        chain([['bob', 4]]),
        'alice',
      ),
    ).toBe(true); // Bob owns the folder
    expect(
      widensAccess(
        chain([
          ['alice', 4],
          ['bob', 3],
        ]),
        chain([
          ['alice', 4],
          ['carol', 1],
        ]),
        'alice',
      ),
    ).toBe(true);
    expect(widensAccess(chain([['alice', 4]]), chain([['workspace', 1]]), 'alice')).toBe(true);
  });

  it("leaves out the item's owner, and lets a workspace grant of the old chain cover every user", () => {
    expect(widensAccess(chain([]), chain([['alice', 4]]), 'alice')).toBe(false);
    expect(
      widensAccess(
        chain([['workspace', 3]]),
        chain([
          ['bob', 3],
          ['carol', 2],
        ]),
        'alice',
      ),
    ).toBe(false);
    expect(widensAccess(chain([['workspace', 3]]), chain([['bob', 4]]), 'alice')).toBe(true);
    // A user's grant never covers the whole workspace.
    expect(widensAccess(chain([['bob', 4]]), chain([['workspace', 1]]), 'alice')).toBe(true);
  });
});
