// What every activity is built from: the worker hands these to createActivities once (worker/main.ts).
import type { Knex } from 'knex';
import type { Client as StorageClient } from 'minio';
import type { Config } from '../platform/config.js';
import type { WorkflowClient } from '../workflows/client.js';

export interface ActivityDeps {
  db: Knex;
  storage: StorageClient;
  bucket: string;
  masterKey: Buffer;
  /** Read when an activity runs, so a changed setting takes effect at the next run without a new workflow. */
  settings: () => Config;
  workflows: WorkflowClient;
}
