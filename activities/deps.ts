// What every activity is built from: the worker hands these to createActivities once (worker/main.ts).
import type { Knex } from 'knex';
import type { ObjectStore } from '../domain/drive/content-objects.js';
import type { MasterKey } from '../domain/drive/crypto.js';
import type { RunInTransaction } from '../domain/unit-of-work.js';
import type { Config } from '../platform/config.js';
import type { WebhookTransport } from '../platform/webhook-transport.js';

/**
 * What activities may ask of Temporal; workflows/client.ts implements it. Declared here rather than imported from
 * the client because workflow code imports the activity types, and the client imports workflow code (its signals):
 * importing the client's type here would close that loop.
 */
interface ActivityWorkflows {
  /** One transaction whose workflow requests go out after its commit (a domain write that starts workflows). */
  runInTransaction(knex: Knex): RunInTransaction;
  /** Starts what the transactional outbox still holds from rows older than `olderThanMs`. */
  sweepOutbox(knex: Knex, olderThanMs: number): Promise<{ started: number; failed: number }>;
  /** Starts the push fan-outs a commit outside runInTransaction recorded (db/migrations/015_drive_push.ts). */
  dispatchDrivePushes(knex: Knex): Promise<void>;
}

export interface ActivityDeps {
  db: Knex;
  /** Object storage, through its adapter (platform/object-store.ts). */
  objects: ObjectStore;
  masterKey: MasterKey;
  /** Read when an activity runs, so a changed setting takes effect at the next run without a new workflow. */
  settings: () => Config;
  workflows: ActivityWorkflows;
  /** The HTTPS POST of webhook attempts, with its kept connections (platform/webhook-transport.ts). */
  webhookTransport: WebhookTransport;
}
