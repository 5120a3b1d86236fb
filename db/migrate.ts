// Runs Folio's migrations. The list is explicit so compiled and source builds migrate the same way.
import type { Knex } from 'knex';
import * as accounts from './migrations/001_accounts.js';
import * as drive from './migrations/002_drive.js';
import * as driveContent from './migrations/003_drive_content.js';
import * as driveTrash from './migrations/004_drive_trash.js';
import * as driveFeedSharing from './migrations/005_drive_feed_sharing.js';
import * as documents from './migrations/006_documents.js';
import * as workflowOutbox from './migrations/007_workflow_outbox.js';
import * as documentBatchEndpoint from './migrations/008_document_batch_endpoint.js';
import * as driveItemTrashed from './migrations/009_drive_item_trashed.js';
import * as emailWebhooks from './migrations/010_email_webhooks.js';
import * as publicLinkTokenHash from './migrations/011_public_link_token_hash.js';
import * as documentRevisionDeltas from './migrations/012_document_revision_deltas.js';
import * as driveThumbnails from './migrations/013_drive_thumbnails.js';
import * as adminSessions from './migrations/014_admin_sessions.js';
import * as drivePush from './migrations/015_drive_push.js';
import * as driveStagedUploads from './migrations/016_drive_staged_uploads.js';
import * as credentialRevocations from './migrations/017_credential_revocations.js';
import * as documentStateVersion from './migrations/018_document_state_version.js';
import * as documentRevisionRestores from './migrations/019_document_revision_restores.js';
import * as webhookTestResend from './migrations/020_webhook_test_resend.js';
import * as driveChangesNotify from './migrations/021_drive_changes_notify.js';
import * as driveContentHash from './migrations/022_drive_content_hash.js';
import * as secretsAtRest from './migrations/023_secrets_at_rest.js';
import * as driveNameKey from './migrations/024_drive_name_key.js';
import * as driveVersionEpochs from './migrations/025_drive_version_epochs.js';
import * as webhookAttemptResponses from './migrations/026_webhook_attempt_responses.js';
import * as earlyAccess from './migrations/027_early_access.js';
import * as driveChangeLogState from './migrations/028_drive_change_log_state.js';
import * as emailReplyIndex from './migrations/029_email_reply_index.js';
import * as driveSnapshotByParent from './migrations/030_drive_snapshot_by_parent.js';
import * as refuseUnless from './migrations/031_refuse_unless.js';
import * as chainEpochsPlannedOnce from './migrations/032_chain_epochs_planned_once.js';
import * as driveItemsOneTrashedWithIndex from './migrations/033_drive_items_one_trashed_with_index.js';
import * as driveStagedUploadsPrimaryKeyOnly from './migrations/034_drive_staged_uploads_primary_key_only.js';

const MIGRATIONS: Record<string, Knex.Migration> = {
  '001_accounts': accounts,
  '002_drive': drive,
  '003_drive_content': driveContent,
  '004_drive_trash': driveTrash,
  '005_drive_feed_sharing': driveFeedSharing,
  '006_documents': documents,
  '007_workflow_outbox': workflowOutbox,
  '008_document_batch_endpoint': documentBatchEndpoint,
  '009_drive_item_trashed': driveItemTrashed,
  '010_email_webhooks': emailWebhooks,
  '011_public_link_token_hash': publicLinkTokenHash,
  '012_document_revision_deltas': documentRevisionDeltas,
  '013_drive_thumbnails': driveThumbnails,
  '014_admin_sessions': adminSessions,
  '015_drive_push': drivePush,
  '016_drive_staged_uploads': driveStagedUploads,
  '017_credential_revocations': credentialRevocations,
  '018_document_state_version': documentStateVersion,
  '019_document_revision_restores': documentRevisionRestores,
  '020_webhook_test_resend': webhookTestResend,
  '021_drive_changes_notify': driveChangesNotify,
  '022_drive_content_hash': driveContentHash,
  '023_secrets_at_rest': secretsAtRest,
  '024_drive_name_key': driveNameKey,
  '025_drive_version_epochs': driveVersionEpochs,
  '026_webhook_attempt_responses': webhookAttemptResponses,
  '027_early_access': earlyAccess,
  '028_drive_change_log_state': driveChangeLogState,
  '029_email_reply_index': emailReplyIndex,
  '030_drive_snapshot_by_parent': driveSnapshotByParent,
  '031_refuse_unless': refuseUnless,
  '032_chain_epochs_planned_once': chainEpochsPlannedOnce,
  '033_drive_items_one_trashed_with_index': driveItemsOneTrashedWithIndex,
  '034_drive_staged_uploads_primary_key_only': driveStagedUploadsPrimaryKeyOnly,
};

const source: Knex.MigrationSource<string> = {
  getMigrations: async () => Object.keys(MIGRATIONS),
  getMigrationName: (name) => name,
  getMigration: async (name) => MIGRATIONS[name]!,
};

export async function migrateLatest(knex: Knex): Promise<string[]> {
  const [, applied] = (await knex.migrate.latest({ migrationSource: source })) as [number, string[]];
  return applied;
}
