// All activities, built from their dependencies. Workflows import only the Activities type.
import { createAccountActivities } from './accounts.js';
import type { ActivityDeps } from './deps.js';
import { createDocumentActivities } from './documents.js';
import { createDriveContentActivities } from './drive-content.js';
import { createDriveFeedActivities } from './drive-feed.js';
import { createDriveTrashActivities } from './drive-trash.js';
import { createMasterKeyActivities } from './master-key.js';
import { createThumbnailActivities } from './thumbnails.js';
import { createPushActivities } from './push.js';
import { createWorkflowOutboxActivities } from './workflow-outbox.js';
import { createWebhookActivities } from './webhooks.js';

export type { ActivityDeps } from './deps.js';

export function createActivities(deps: ActivityDeps) {
  return {
    ...createAccountActivities(deps),
    ...createDriveContentActivities(deps),
    ...createDriveTrashActivities(deps),
    ...createDriveFeedActivities(deps),
    ...createDocumentActivities(deps),
    ...createWorkflowOutboxActivities(deps),
    ...createWebhookActivities(deps),
    ...createThumbnailActivities(deps),
    ...createPushActivities(deps),
    ...createMasterKeyActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
