// All activities, built from their dependencies. Workflows import only the Activities type.
import type { Knex } from 'knex';
import type { Client as StorageClient } from 'minio';
import { createAccountActivities } from './accounts.js';
import { createDriveContentActivities } from './drive-content.js';
import { createDriveFeedActivities } from './drive-feed.js';
import { createDriveTrashActivities } from './drive-trash.js';
import { createDocumentActivities } from './documents.js';

export interface ActivityDeps {
  db: Knex;
  storage: StorageClient;
  bucket: string;
}

export function createActivities(deps: ActivityDeps) {
  return {
    ...createAccountActivities(deps),
    ...createDriveContentActivities(deps),
    ...createDriveTrashActivities(deps),
    ...createDriveFeedActivities(deps),
    ...createDocumentActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
