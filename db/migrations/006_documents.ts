// Documents: the document row with its current engine state, the revision log, idempotent batches, threads and
// their messages, document grants, and attachments (bytes in object storage).
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('documents', (t) => {
    t.uuid('uuid').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('workspace_uuid').notNullable().references('workspaces.uuid').onDelete('CASCADE');
    t.uuid('owner_uuid').notNullable().references('users.uuid');
    t.text('title');
    // The revision the current state is at; every content change adds one, under the row lock.
    t.integer('revision').notNullable().defaultTo(1);
    // The edit engine's state (domain/document-engine/state.ts): the ProseMirror document and its thread anchors.
    t.jsonb('state').notNullable();
    // Suggestion refs (the n of {>>sN<<}) are never reused within a document, so old markdown cannot name a new one.
    t.integer('next_suggestion_ref').notNullable().defaultTo(1);
    t.timestamp('trashed_at', { useTz: true });
    t.timestamps(true, true);
    t.check('title is null or char_length(title) between 1 and 255', [], 'documents_title_length');
    t.check('revision >= 1', [], 'documents_revision_positive');
  });
  await knex.raw(
    'CREATE INDEX documents_owner_newest ON documents (workspace_uuid, owner_uuid, created_at DESC, uuid DESC)',
  );
  await knex.raw('CREATE INDEX documents_trashed ON documents (trashed_at) WHERE trashed_at IS NOT NULL');

  await knex.schema.createTable('document_revisions', (t) => {
    t.uuid('document_uuid').notNullable().references('documents.uuid').onDelete('CASCADE');
    t.integer('revision').notNullable();
    // What produced the revision: edit, suggest, accept, reject, remove_suggestion, create.
    t.text('cause').notNullable();
    // The engine state after the revision, so any revision's markdown can be read back without replaying.
    t.jsonb('state').notNullable();
    t.uuid('author_uuid').references('users.uuid').onDelete('SET NULL');
    t.text('batch_id');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['document_uuid', 'revision'], { constraintName: 'document_revisions_document_revision' });
  });

  // One row per applied batch_id: a retry with the same id answers the stored response and applies nothing.
  await knex.schema.createTable('document_batches', (t) => {
    t.uuid('document_uuid').notNullable().references('documents.uuid').onDelete('CASCADE');
    t.uuid('user_uuid').notNullable().references('users.uuid').onDelete('CASCADE');
    t.text('batch_id').notNullable();
    t.integer('revision').notNullable();
    t.integer('response_status').notNullable();
    t.jsonb('response').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['document_uuid', 'user_uuid', 'batch_id'], { constraintName: 'document_batches_key' });
    t.check('char_length(batch_id) between 1 and 64', [], 'document_batches_id_length');
  });

  await knex.schema.createTable('document_threads', (t) => {
    // Also the engine's thread id (the anchor marks carry it).
    t.uuid('uuid').primary();
    t.uuid('document_uuid').notNullable().references('documents.uuid').onDelete('CASCADE');
    t.text('kind').notNullable();
    t.integer('ref');
    // comment: open | resolved; suggestion: open | closed (resolution accepted | rejected).
    t.text('status').notNullable().defaultTo('open');
    t.text('resolution');
    t.uuid('author_uuid').notNullable().references('users.uuid');
    // Orders threads that share a created_at (the suggestions of one request, in operation order).
    t.bigIncrements('seq', { primaryKey: false });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.check(`kind in ('comment', 'suggestion')`, [], 'document_threads_kind');
    t.check(`(kind = 'suggestion') = (ref is not null)`, [], 'document_threads_ref');
    t.check(
      `(kind = 'comment' and status in ('open', 'resolved') and resolution is null)
       or (kind = 'suggestion' and status in ('open', 'closed') and (status = 'closed') = (resolution is not null))`,
      [],
      'document_threads_status',
    );
    t.check(
      `resolution is null or resolution in ('accepted', 'rejected')`,
      [],
      'document_threads_resolution',
    );
    t.unique(['document_uuid', 'ref'], { indexName: 'document_threads_ref_unique' });
    t.index(['document_uuid', 'seq']);
  });

  await knex.schema.createTable('document_thread_messages', (t) => {
    t.uuid('uuid').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('thread_uuid').notNullable().references('document_threads.uuid').onDelete('CASCADE');
    t.uuid('author_uuid').notNullable().references('users.uuid');
    t.text('body').notNullable();
    // Orders messages that share a created_at (several in one transaction).
    t.bigIncrements('seq', { primaryKey: false });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('edited_at', { useTz: true });
    t.index(['thread_uuid', 'seq']);
  });

  await knex.schema.createTable('document_grants', (t) => {
    t.uuid('uuid').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('workspace_uuid').notNullable().references('workspaces.uuid').onDelete('CASCADE');
    t.uuid('document_uuid').notNullable().references('documents.uuid').onDelete('CASCADE');
    t.text('principal_type').notNullable();
    t.uuid('principal_user_uuid').references('users.uuid').onDelete('CASCADE');
    t.uuid('principal_workspace_uuid').references('workspaces.uuid').onDelete('CASCADE');
    t.text('role').notNullable();
    t.text('status').notNullable();
    t.timestamps(true, true);
    t.check(`principal_type in ('user', 'workspace')`, [], 'document_grants_principal_type');
    t.check(
      `(principal_type = 'user') = (principal_user_uuid is not null)`,
      [],
      'document_grants_user_principal',
    );
    t.check(
      `(principal_type = 'workspace') = (principal_workspace_uuid is not null)`,
      [],
      'document_grants_workspace_principal',
    );
    t.check(`role in ('viewer', 'commenter', 'editor', 'manager')`, [], 'document_grants_role');
    t.check(`status in ('pending', 'accepted', 'revoked')`, [], 'document_grants_status');
    t.index(['document_uuid']);
    t.index(['principal_user_uuid']);
    t.index(['principal_workspace_uuid']);
  });
  // One live grant per principal and document; granting again updates it.
  await knex.raw(`CREATE UNIQUE INDEX document_grants_live_user ON document_grants (document_uuid, principal_user_uuid)
                  WHERE principal_type = 'user' AND status <> 'revoked'`);
  await knex.raw(`CREATE UNIQUE INDEX document_grants_live_workspace ON document_grants (document_uuid, principal_workspace_uuid)
                  WHERE principal_type = 'workspace' AND status <> 'revoked'`);

  await knex.schema.createTable('document_attachments', (t) => {
    t.uuid('uuid').primary();
    t.uuid('document_uuid').notNullable().references('documents.uuid').onDelete('CASCADE');
    t.uuid('workspace_uuid').notNullable().references('workspaces.uuid').onDelete('CASCADE');
    t.uuid('uploader_uuid').notNullable().references('users.uuid');
    t.text('filename').notNullable();
    t.text('content_type').notNullable();
    t.bigInteger('byte_size').notNullable().defaultTo(0);
    // SHA-256 of the plaintext: the same bytes uploaded to the same document again answer the same attachment.
    t.binary('sha256');
    t.text('upload_status').notNullable();
    t.integer('width');
    t.integer('height');
    t.boolean('inline').notNullable().defaultTo(false);
    t.text('storage_key').notNullable();
    t.binary('wrapped_key').notNullable();
    t.integer('chunk_size_bytes').notNullable();
    t.timestamps(true, true);
    t.check(`upload_status in ('awaiting_upload', 'completed', 'failed')`, [], 'document_attachments_status');
    t.check(`upload_status <> 'completed' or sha256 is not null`, [], 'document_attachments_completed_hash');
    t.index(['document_uuid']);
  });
  await knex.raw(`CREATE UNIQUE INDEX document_attachments_same_bytes ON document_attachments (document_uuid, sha256)
                  WHERE upload_status = 'completed'`);

  // Effective role of a user on a document: owner; else the highest accepted grant to the user or their
  // workspace. Null means invisible (also for a document of another workspace).
  await knex.raw(`
    CREATE FUNCTION document_effective_role(document uuid, member uuid, member_workspace uuid) RETURNS text
    LANGUAGE sql STABLE AS $$
      SELECT CASE
        WHEN d.workspace_uuid <> member_workspace THEN NULL
        WHEN d.owner_uuid = member THEN 'owner'
        ELSE (SELECT (ARRAY['viewer', 'commenter', 'editor', 'manager'])[max(
                CASE g.role WHEN 'viewer' THEN 1 WHEN 'commenter' THEN 2 WHEN 'editor' THEN 3 WHEN 'manager' THEN 4 END)]
              FROM document_grants g
              WHERE g.document_uuid = d.uuid AND g.status = 'accepted'
                AND (g.principal_user_uuid = member OR g.principal_workspace_uuid = member_workspace))
      END
      FROM documents d WHERE d.uuid = document
    $$;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP FUNCTION IF EXISTS document_effective_role(uuid, uuid, uuid)');
  for (const table of [
    'document_attachments',
    'document_grants',
    'document_thread_messages',
    'document_threads',
    'document_batches',
    'document_revisions',
    'documents',
  ]) {
    await knex.schema.dropTableIfExists(table);
  }
}
