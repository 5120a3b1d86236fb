// The master-key rotation's one activity (workflows/master-key-rotation.ts): rewrap one page of one table.
import { rewrapPage, WRAPPED_KEY_TABLES, type RewrapPage } from '../domain/master-key-rotation.js';
import type { ActivityDeps } from './deps.js';
import { heartbeating } from './heartbeat.js';

export function createMasterKeyActivities(deps: Pick<ActivityDeps, 'db' | 'masterKey'>) {
  const { masterKey } = deps;
  return {
    /**
     * Rewraps the next page of `table` under this worker's master key, which must be the key the rotation moves to: a
     * worker not yet given it fails the attempt, and the retry lands on one that has it. Idempotent: a key already
     * under the current master key is left as it is.
     */
    async rewrapWrappedKeys(input: {
      table: string;
      after: string | null;
      limit: number;
      keyId: number;
    }): Promise<RewrapPage> {
      if ((masterKey.keyId ?? 0) !== input.keyId) {
        throw new Error(
          `this worker's master key is id ${masterKey.keyId ?? 0}, not ${input.keyId}: give every process FOLIO_MASTER_KEY_ID=${input.keyId} first`,
        );
      }
      const table = WRAPPED_KEY_TABLES.find((candidate) => candidate.table === input.table);
      if (!table) throw new Error(`no wrapped keys in table ${input.table}`);
      return heartbeating(() => rewrapPage(deps.db, masterKey, table, input.after, input.limit));
    },
  };
}
