// Sync tokens as this stack's API seals them (its configured master key), for tests that read or forge one.
import {
  decodeSyncToken as decodeWith,
  deriveSyncTokenKey,
  encodeSyncToken as encodeWith,
  type FeedCursor,
} from '../../domain/drive/sync-token.js';
import { config } from '../../platform/config.js';

const key = () => deriveSyncTokenKey(config().masterKey);

export const decodeSyncToken = (token: string): FeedCursor | undefined => decodeWith(token, key());
export const encodeSyncToken = (cursor: FeedCursor): string => encodeWith(cursor, key());
