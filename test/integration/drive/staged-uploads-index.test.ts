// drive_staged_uploads keeps only its primary key (db/migrations/034): its rows live only while their simple upload
// does, and the sweep (domain/drive/staged-uploads.ts) reads every row, so an index by age was one more entry for every
// upload to write and none to read. The sweep's own behaviour is tested in simple-upload-crash.test.ts.
import { describe, expect, it } from 'vitest';
import { db } from '../../../platform/database.js';

describe('drive_staged_uploads', () => {
  it('has no index but its primary key', async () => {
    const { rows } = (await db().raw(
      `select indexname from pg_indexes where tablename = 'drive_staged_uploads' order by indexname`,
    )) as { rows: { indexname: string }[] };
    expect(rows.map((row) => row.indexname)).toEqual(['drive_staged_uploads_pkey']);
  });
});
