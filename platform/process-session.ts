// One PostgreSQL session per API app (api/services.ts builds it), outside the pool, for two things that must follow
// the app's life: an advisory lock that says "this process is alive" (its simple uploads in flight are not
// abandoned), and a LISTEN for credential revocations (the credential cache must forget a revoked token before the
// next request).
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Logger } from 'pino';

/** Every API process's notifications of a revoked or deleted credential: the payload is its hash, in hex. */
const CREDENTIAL_REVOKED_CHANNEL = 'folio_credential_revoked';

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
  /** The `select 1` on the wire, and the one the callers that came after it was sent are waiting for. */
  private heardCheck: Promise<void> | undefined;
  private nextHeardCheck: Promise<void> | undefined;

  constructor(private readonly options: { connectionString: string; log: Pick<Logger, 'warn'> }) {}

  subscribe(events: ProcessSessionEvents): void {
    this.subscribers.add(events);
  }

  /** True while the session holds the lock and listens: only then may a cached credential be trusted. */
  get live(): boolean {
    return this.client !== undefined;
  }

  /**
   * Resolves once this session has heard every notification committed before the call, so a cached credential can be
   * trusted: a listening PostgreSQL session hands its client the notifications pending for it before it reads the
   * next query, and pg emits them before that query's answer, so the answer to a query sent after this call comes
   * after them. Callers at the same moment share one query; one that arrives while a query is on the wire waits for
   * the next. Rejects when the session is down or is lost meanwhile.
   */
  heardEverythingCommitted(): Promise<void> {
    if (!this.heardCheck) {
      const check = this.roundTrip().finally(() => {
        if (this.heardCheck === check) this.heardCheck = undefined;
      });
      this.heardCheck = check;
      return check;
    }
    // The query in flight may have been sent before this caller arrived: it proves nothing for it.
    this.nextHeardCheck ??= this.heardCheck
      .catch(() => undefined)
      .then(() => {
        this.nextHeardCheck = undefined;
        return this.heardEverythingCommitted();
      });
    return this.nextHeardCheck;
  }

  private async roundTrip(): Promise<void> {
    const client = this.client;
    if (!client) throw new Error('the process session is down');
    await client.query('select 1');
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
