// The API's composition root: everything a request may reach besides its own arguments, built once per app by
// createApiServices (api/server.ts calls it once per process; a test may build two) and handed to createApp and to
// every route factory. No module of api/ keeps state of its own: the database pool, the LISTEN connections, the
// caches, the counters and the rate limits all live here, so two apps built from two services objects share nothing.
// The order in which a stopping process lets them go is in `shutdown` (docs/architecture.md § The API's services).
import type { Client } from '@temporalio/client';
import type * as Minio from 'minio';
import type { ContentDeps } from '../domain/drive/content.js';
import { driveChangesChannel } from '../domain/drive/change-notifications.js';
import type { DocumentsDeps } from '../domain/documents/deps.js';
import { documentLiveChannel, LiveHub } from '../domain/documents/live.js';
import type { WorkingDocument } from '../domain/document-engine/index.js';
import { deriveSyncTokenKey } from '../domain/drive/sync-token.js';
import type { RunInTransaction } from '../domain/unit-of-work.js';
import type { Config } from '../platform/config.js';
import type { Db } from '../platform/database.js';
import { EventLoopWatch } from '../platform/event-loop.js';
import { logger } from '../platform/logger.js';
import { NotificationHub } from '../platform/notification-hub.js';
import { S3ObjectStore } from '../platform/object-store.js';
import { ProcessSession } from '../platform/process-session.js';
import { createStorage } from '../platform/storage.js';
import { connectTemporal } from '../platform/temporal.js';
import { WorkingDocumentCache } from '../platform/working-document-cache.js';
import { createWorkflowClient, type WorkflowClient } from '../workflows/client.js';
import { CredentialCache } from './middleware/credential-cache.js';
import { RateLimiter } from './middleware/rate-limit.js';
import type { RunningRequest } from './middleware/request-context.js';
import { UploadSlots } from './middleware/upload-slots.js';
import { PerUserSlots } from './per-user-slots.js';
import { Draining, Shutdown } from './shutdown.js';

/** The settings the API reads (platform/config.ts), read once by api/server.ts and handed in. */
type ApiSettings = Config;

export interface ApiServices {
  settings: ApiSettings;
  /** The knex pool; the only connection to PostgreSQL besides the LISTEN ones below. */
  db: Db;
  /** Object storage and the bucket Folio keeps its bytes in. */
  storage: { client: Minio.Client; bucket: string };
  /** This app's Temporal connection, opened at the first use. */
  temporal: () => Promise<Client>;
  /** Starts of workflows and the unit of work with its outbox (workflows/client.ts). */
  workflows: WorkflowClient;
  /** Runs work in one transaction of `db` whose workflow starts go out after its commit. */
  runInTransaction: RunInTransaction;
  /** The advisory lock of this app's simple uploads and the LISTEN that keeps `credentials` honest. */
  session: ProcessSession;
  credentials: CredentialCache;
  /** The Documents live channel: one LISTEN connection, opened with the first stream or cached document. */
  liveHub: LiveHub;
  /** The Drive changes long-poll's notifications: one LISTEN connection, opened with the first wait. */
  changesHub: NotificationHub<true>;
  /** What the Drive content operations are handed (domain/drive/content.ts). */
  content: ContentDeps;
  /**
   * What the Documents operations are handed (domain/documents/deps.ts): this app's cache of parsed documents, which
   * lets go of a document another process wrote when it hears so on `liveHub`, and the attachments' object storage.
   */
  documents: DocumentsDeps;
  /** Sync-token keys: the current master key's first (it seals), then the previous keys' during a rotation. */
  syncTokenKeys: Buffer[];
  /** Large request bodies read at once (simple uploads, attachments), and the deferred `100 Continue`s. */
  uploadSlots: UploadSlots;
  /** Live streams each person holds open, and Drive long-polls each person holds. */
  liveStreams: PerUserSlots;
  changeWaits: PerUserSlots;
  /** Public links (/s/): per client address and per link. */
  publicLinkLimits: { perIp: RateLimiter; perToken: RateLimiter };
  /** The requests running, for the event-loop watchdog. */
  running: EventLoopWatch<RunningRequest>;
  /** Set once the app begins to stop: /readyz fails, HTTP/1.1 answers close their connection. */
  draining: Draining;
  /** The hooks a stopping app runs, in order (api/shutdown.ts). */
  shutdown: Shutdown;
}

/**
 * Builds an app's services from its settings and database pool. Nothing connects here: the LISTEN connections,
 * the session and Temporal open at their first use (api/server.ts opens the session before listening).
 */
export function createApiServices(settings: ApiSettings, db: Db): ApiServices {
  const storageClient = createStorage(settings.storage);
  const bucket = settings.storage.bucket;
  // One adapter over the bucket for Drive's content, document attachments and stored mail.
  const objects = new S3ObjectStore(storageClient, bucket);
  let temporalClient: Promise<Client> | undefined;
  const temporal = () => {
    if (temporalClient) return temporalClient;
    const connecting = connectTemporal(settings.temporal);
    // A failed connect is not kept: the next caller tries again (Temporal may have been restarting).
    connecting.catch(() => {
      if (temporalClient === connecting) temporalClient = undefined;
    });
    return (temporalClient = connecting);
  };
  const workflows = createWorkflowClient({
    temporal,
    taskQueue: settings.temporal.taskQueue,
    uploadExpiryMs: settings.uploadExpiryMs,
    fileVersionRetentionMs: settings.fileVersionRetentionMs,
    push: settings.push,
    log: logger.child({ category: 'workflows' }),
  });
  const runInTransaction: RunInTransaction = (work) => workflows.runInTransaction(db)(work);
  const session = new ProcessSession({
    connectionString: settings.databaseUrl,
    log: logger.child({ category: 'process-session' }),
  });
  const liveHub = new LiveHub(
    new NotificationHub({
      ...documentLiveChannel,
      connectionString: settings.databaseUrl,
      log: logger.child({ category: 'documents-live' }),
    }),
  );
  const changesHub = new NotificationHub({
    ...driveChangesChannel,
    connectionString: settings.databaseUrl,
    log: logger.child({ category: 'drive-changes' }),
  });
  const liveStreams = new PerUserSlots();
  const { perIp, perToken, windowMs } = settings.publicLinkRate;

  const shutdown = new Shutdown(logger.child({ category: 'lifecycle' }));
  const draining = new Draining();
  // Begins to stop: readiness fails at once, and the live streams end so their clients reconnect to another process
  // while this one still serves what is in flight.
  shutdown.add('drain', 'readiness', () => draining.start());
  shutdown.add('drain', 'live streams', () => liveStreams.endAll());
  // After the last connection: the LISTEN connections, the session, Temporal, then the pool.
  shutdown.add('close', 'live channel', () => liveHub.close());
  shutdown.add('close', 'drive changes', () => changesHub.close());
  shutdown.add('close', 'process session', () => session.close());
  shutdown.add('close', 'temporal', async () => (await temporalClient)?.connection.close());
  shutdown.add('close', 'database', () => db.destroy());

  return {
    settings,
    db,
    storage: { client: storageClient, bucket },
    temporal,
    workflows,
    runInTransaction,
    session,
    credentials: new CredentialCache(session),
    liveHub,
    changesHub,
    documents: {
      settings,
      workingDocuments: new WorkingDocumentCache<WorkingDocument>({
        follow: (documentUuid, listener) => liveHub.subscribe(documentUuid, listener),
      }),
      attachmentObjects: objects,
      masterKey: settings.masterKey,
    },
    content: {
      db,
      objects,
      masterKey: settings.masterKey,
      lifecycles: workflows,
      runInTransaction,
      runOneStatement: workflows.runOneStatement(db),
      uploadOwnerLock: () => session.ownerLock(),
      log: logger.child({ category: 'drive-content' }),
    },
    syncTokenKeys: [settings.masterKey, ...(settings.masterKey.previousKeys?.values() ?? [])].map(
      deriveSyncTokenKey,
    ),
    uploadSlots: new UploadSlots(settings.http.maxConcurrentLargeUploads),
    liveStreams,
    changeWaits: new PerUserSlots(),
    publicLinkLimits: {
      perIp: new RateLimiter(perIp, windowMs),
      perToken: new RateLimiter(perToken, windowMs),
    },
    running: new EventLoopWatch<RunningRequest>(),
    draining,
    shutdown,
  };
}
