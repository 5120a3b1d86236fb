// drive_items had two indexes led by trashed_with: migration 002's over every row (each live item adds a null entry)
// and migration 004's partial drive_items_trashed_with_parent (trashed_with, parent_uuid) over the trashed ones only.
// Every lookup by trashed_with is an equality (the trash and restore cascades, domain/drive/trash-cascade.ts), which the
// partial index answers; the full one only cost each new item, and each trash and restore, one more index entry to
// write (a simple upload's commit wrote six entries into drive_items' indexes, five without it; docs/benchmarks.md §
// 2026-11-29 (session 23)).
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS drive_items_trashed_with_index');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('CREATE INDEX IF NOT EXISTS drive_items_trashed_with_index ON drive_items (trashed_with)');
}
