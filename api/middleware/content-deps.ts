// What the Drive content routes hand domain/drive/content.ts: the database, object storage, the master key, the
// lifecycle starts and the one transaction of an upload, from this process's configuration.
import type { ContentDeps } from '../../domain/drive/content.js';
import { config } from '../../platform/config.js';
import { db } from '../../platform/database.js';
import { logger } from '../../platform/logger.js';
import { processSession } from '../../platform/process-session.js';
import { bucket, storage } from '../../platform/storage.js';
import { workflowClient } from '../../workflows/client.js';
import { runInTransaction } from './transaction.js';

let shared: ContentDeps | undefined;

export function contentDeps(): ContentDeps {
  shared ??= {
    db: db(),
    storage: storage(),
    bucket: bucket(),
    masterKey: config().masterKey,
    lifecycles: workflowClient(),
    runInTransaction,
    uploadOwnerLock: () => processSession().ownerLock(),
    log: logger.child({ category: 'drive-content' }),
  };
  return shared;
}
