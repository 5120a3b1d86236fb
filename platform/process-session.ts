// One PostgreSQL session per API app (api/services.ts builds it), outside the pool, for two things that must follow
// the app's life: an advisory lock that says "this process is alive" (its simple uploads in flight are not
// abandoned), and a LISTEN for credential revocations (the credential cache must forget a revoked token before the
// next request). A revoker waits until every such session has heard its revocation (everyApiProcessHeard), so a
// request costs no check of its own.
import { randomBytes, randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import pg from 'pg';
import type { Logger } from 'pino';

/** Every API process's notifications of a revoked or deleted credential: the payload is its hash, in hex. */
const CREDENTIAL_REVOKED_CHANNEL = 'folio_credential_revoked';
/** A revoker's question to every API process, "have you heard everything before this?": the payload is its nonce. */
const CREDENTIALS_SYNC_CHANNEL = 'folio_credentials_sync';
/** Each API process's answer to a sync, the nonce again; the revoker tells the sessions apart by their backend pid. */
const CREDENTIALS_HEARD_CHANNEL = 'folio_credentials_heard';
/**
 * The application_name of a session that listens (set once its LISTENs are in force): the sessions a revoker waits for
 * are those pg_stat_activity shows under it.
 */
const LISTENING_SESSION_NAME = 'folio-api-listening';
/** How often a waiting revoker looks again at which sessions are alive (one that ended owes no answer). */
const SESSIONS_RECHECK_MS = 100;

const RECONNECT_DELAY_MS = 1000;

export interface ProcessSessionEvents {
  /** A credential changed: forget what is cached for this hash. */
  onCredentialRevoked(hashHex: string): void;
  /** Notifications may have been missed (the session was lost, or has just been opened again): forget everything. */
  onReset(): void;
}

export class ProcessSession {
  /**
   * The advisory lock key (the one-bigint form) this process holds for as long as it lives. PostgreSQL releases it
   * when the session ends, crash included, which is how a sweep tells an abandoned upload from one still running.
   */
  readonly lockKey = randomBytes(8).readBigInt64BE().toString();
  private client: pg.Client | undefined;
  private connecting: Promise<pg.Client> | undefined;
  private closed = false;

  private readonly subscribers = new Set<ProcessSessionEvents>();

  constructor(private readonly options: { connectionString: string; log: Pick<Logger, 'warn'> }) {}

  subscribe(events: ProcessSessionEvents): void {
    this.subscribers.add(events);
  }

  /** True while the session holds the lock and listens: only then may a cached credential be trusted. */
  get live(): boolean {
    return this.client !== undefined;
  }

  /** The lock key, once the session holds it (opening the session if need be). */
  async ownerLock(): Promise<string> {
    await this.open();
    return this.lockKey;
  }

  open(): Promise<pg.Client> {
    if (this.client) return Promise.resolve(this.client);
    this.connecting ??= this.connect().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  async close(): Promise<void> {
    this.closed = true;
    const client = this.client;
    this.client = undefined;
    this.reset();
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: this.options.connectionString });
    client.on('notification', (message) => {
      if (message.channel === CREDENTIAL_REVOKED_CHANNEL && message.payload)
        for (const events of this.subscribers) events.onCredentialRevoked(message.payload);
      // Notifications come in commit order: every revocation committed before the sync has been handled above.
      if (message.channel === CREDENTIALS_SYNC_CHANNEL && message.payload)
        client
          .query('select pg_notify($1, $2)', [CREDENTIALS_HEARD_CHANNEL, message.payload])
          .catch((error: unknown) =>
            this.options.log.warn({ err: error }, 'process session could not answer a credentials sync'),
          );
    });
    client.on('error', (error) => {
      this.options.log.warn({ err: error }, 'process session connection failed');
      this.lost(client);
    });
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      await client.query('select pg_advisory_lock($1::bigint)', [this.lockKey]);
      await client.query(`LISTEN ${CREDENTIAL_REVOKED_CHANNEL}`);
      await client.query(`LISTEN ${CREDENTIALS_SYNC_CHANNEL}`);
      await client.query(`select set_config('application_name', $1, false)`, [LISTENING_SESSION_NAME]);
    } catch (error) {
      client.removeAllListeners('end');
      await client.end().catch(() => undefined);
      throw error;
    }
    // What was cached before this session listened may have been revoked unheard.
    this.reset();
    this.client = client;
    return client;
  }

  private reset() {
    for (const events of this.subscribers) events.onReset();
  }

  private lost(client: pg.Client) {
    if (this.client !== client) return;
    this.client = undefined;
    this.reset();
    client.removeAllListeners('end');
    void client.end().catch(() => undefined);
    this.scheduleReconnect();
  }

  private scheduleReconnect() {
    if (this.closed) return;
    setTimeout(() => {
      this.open().catch((error) => {
        this.options.log.warn({ err: error }, 'process session reconnect failed');
        this.scheduleReconnect();
      });
    }, RECONNECT_DELAY_MS).unref();
  }
}

/**
 * Resolves once every API process has heard every credential revocation committed before the call, so a request sent
 * after it is not served from a cache that still holds a revoked credential; or after `timeoutMs`, by when every entry
 * cached before the call has expired (the cache's TTL). Asks each listening session (pg_stat_activity, by
 * LISTENING_SESSION_NAME) with a NOTIFY committed after the revocation: a session hears notifications in commit order,
 * so its answer comes after it handled the revocation. A session not yet listed when the revoker looks is not asked:
 * its process empties its cache once the session is ready, which is later. One that ends meanwhile owes no answer.
 */
export async function everyApiProcessHeard(knex: Knex, timeoutMs: number): Promise<void> {
  const connection = (await knex.client.acquireConnection()) as pg.Client;
  const nonce = randomUUID();
  const answered = new Set<number>();
  let heardFromAll = () => {};
  const allHeard = new Promise<void>((resolve) => (heardFromAll = resolve));
  let waitingFor = new Set<number>();
  const check = () => {
    if ([...waitingFor].every((pid) => answered.has(pid))) heardFromAll();
  };
  const onNotification = (message: pg.Notification) => {
    if (message.channel !== CREDENTIALS_HEARD_CHANNEL || message.payload !== nonce) return;
    answered.add(message.processId);
    check();
  };
  const listening = async () =>
    new Set(
      (
        await connection.query<{ pid: number }>(
          'select pid from pg_stat_activity where application_name = $1 and datname = current_database()',
          [LISTENING_SESSION_NAME],
        )
      ).rows.map((row) => row.pid),
    );
  connection.on('notification', onNotification);
  let timer: NodeJS.Timeout | undefined;
  try {
    await connection.query(`LISTEN ${CREDENTIALS_HEARD_CHANNEL}`);
    waitingFor = await listening();
    if (waitingFor.size === 0) return;
    await connection.query('select pg_notify($1, $2)', [CREDENTIALS_SYNC_CHANNEL, nonce]);
    const deadline = Date.now() + timeoutMs;
    check();
    while (Date.now() < deadline) {
      const tick = new Promise<'tick'>((resolve) => {
        timer = setTimeout(() => resolve('tick'), Math.min(SESSIONS_RECHECK_MS, deadline - Date.now()));
      });
      if ((await Promise.race([allHeard, tick])) !== 'tick') return;
      const alive = await listening();
      waitingFor = new Set([...waitingFor].filter((pid) => alive.has(pid)));
      check();
    }
  } finally {
    clearTimeout(timer);
    connection.removeListener('notification', onNotification);
    await connection.query(`UNLISTEN ${CREDENTIALS_HEARD_CHANNEL}`).catch(() => undefined);
    await knex.client.releaseConnection(connection);
  }
}
