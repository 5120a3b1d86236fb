// Master-key rotation (docs/operations.md § Master-key rotation): every column holding a key wrapped by the master key,
// and the rewrap of one page of one of them under the current key. Pages follow the primary key, so a run that stops
// resumes after the last page it finished; a key already under the current master key is left as it is.
import type { Knex } from 'knex';
import { rewrapDataKey, type MasterKey } from './drive/crypto.js';

export interface WrappedKeyTable {
  table: string;
  /** The uuid bound into each wrapped key as associated data: the row's own, or its file version's. */
  boundUuid: string;
  columns: string[];
}

/** Every place a wrapped key is stored; a new one must be added here, or a rotation would leave it under the old key. */
export const WRAPPED_KEY_TABLES: WrappedKeyTable[] = [
  { table: 'drive_file_versions', boundUuid: 'uuid', columns: ['wrapped_key'] },
  { table: 'document_attachments', boundUuid: 'uuid', columns: ['wrapped_key'] },
  { table: 'emails', boundUuid: 'uuid', columns: ['wrapped_key'] },
  {
    table: 'webhook_destinations',
    boundUuid: 'uuid',
    columns: ['secret_wrapped', 'previous_secret_wrapped'],
  },
  { table: 'push_clients', boundUuid: 'uuid', columns: ['credential_key_wrapped'] },
  // The keys that seal public-link tokens and device tokens (domain/drive/sharing.ts, push.ts): only the key moves.
  { table: 'drive_public_links', boundUuid: 'uuid', columns: ['token_key_wrapped'] },
  { table: 'drive_push_subscriptions', boundUuid: 'uuid', columns: ['device_token_key_wrapped'] },
];

export interface RewrapPage {
  /** The uuid of the last row looked at, where the next page starts; null when the table is done. */
  after: string | null;
  scanned: number;
  rewrapped: number;
}

/** Rewraps the next `limit` rows of one table after `after`, in one transaction that locks them. */
export async function rewrapPage(
  knex: Knex,
  masterKey: MasterKey,
  table: WrappedKeyTable,
  after: string | null,
  limit: number,
): Promise<RewrapPage> {
  return knex.transaction(async (tx) => {
    const query = tx(table.table)
      .select(table.boundUuid, ...table.columns)
      .orderBy(table.boundUuid)
      .limit(limit)
      .forUpdate();
    if (after) query.where(table.boundUuid, '>', after);
    const rows = (await query) as Record<string, string | Buffer | null>[];
    let rewrapped = 0;
    for (const row of rows) {
      const bound = row[table.boundUuid] as string;
      const changes: Record<string, Buffer> = {};
      for (const column of table.columns) {
        const wrapped = row[column] as Buffer | null;
        const moved = wrapped && rewrapDataKey(masterKey, bound, wrapped);
        if (moved) changes[column] = moved;
      }
      if (Object.keys(changes).length === 0) continue;
      await tx(table.table).where(table.boundUuid, bound).update(changes);
      rewrapped++;
    }
    return {
      after: rows.length < limit ? null : (rows.at(-1)![table.boundUuid] as string),
      scanned: rows.length,
      rewrapped,
    };
  });
}

export interface WrappedKeyCount {
  table: string;
  column: string;
  /** How many wrapped keys are under each master key id. */
  byKeyId: Record<string, number>;
}

/** Where every wrapped key stands: what a rotation still has to move, read straight from the format bytes. */
export async function countWrappedKeys(knex: Knex): Promise<WrappedKeyCount[]> {
  const counts: WrappedKeyCount[] = [];
  for (const table of WRAPPED_KEY_TABLES) {
    for (const column of table.columns) {
      // Format 0x01 is key id 0; format 0x02 names the id in its second byte (domain/drive/crypto.ts).
      const rows = (await knex(table.table)
        .whereNotNull(column)
        .select(
          knex.raw(`case when get_byte(??, 0) = 1 then 0 else get_byte(??, 1) end as key_id`, [
            column,
            column,
          ]),
        )
        .count({ count: '*' })
        .groupBy('key_id')) as { key_id: number; count: string }[];
      counts.push({
        table: table.table,
        column,
        byKeyId: Object.fromEntries(rows.map((row) => [String(row.key_id), Number(row.count)])),
      });
    }
  }
  return counts;
}
