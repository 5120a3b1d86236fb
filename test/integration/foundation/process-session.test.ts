// The API process's own PostgreSQL session and a revoker's wait for every one of them (README.md § Authentication): a
// revocation returns only once every listening session has heard it, however late its notification reaches the
// process; a session that ends owes no answer; the wait never outlasts the cache's TTL.
import { afterEach, describe, expect, it } from 'vitest';
import { hashSecret, revokeAccessToken } from '../../../domain/accounts/credentials.js';
import { config } from '../../../platform/config.js';
import { db } from '../../../platform/database.js';
import { everyApiProcessHeard, ProcessSession } from '../../../platform/process-session.js';
import { makeUser } from '../../support/api.js';

const sessions: ProcessSession[] = [];
const sockets: NodeJS.ReadableStream[] = [];
afterEach(async () => {
  // A socket left paused by a failed test would hold its session's close open.
  for (const socket of sockets.splice(0)) socket.resume();
  await Promise.all(sessions.splice(0).map((session) => session.close()));
});

/** An open session recording, in order, the revocations it hears. */
async function recordingSession() {
  const session = new ProcessSession({
    connectionString: config().databaseUrl,
    log: { warn: () => undefined },
  });
  sessions.push(session);
  const events: string[] = [];
  session.subscribe({
    onCredentialRevoked: (hashHex) => events.push(`revoked ${hashHex}`),
    onReset: () => undefined,
  });
  const client = await session.open();
  // pg's socket: paused, it holds back what PostgreSQL sends, as a busy process or network would.
  const socket = (client as unknown as { connection: { stream: NodeJS.ReadableStream } }).connection.stream;
  sockets.push(socket);
  return { session, events, client: client as unknown as { processID: number }, socket };
}

/**
 * Resolves once a revoker is waiting for answers, or once `returned` says it has stopped waiting. A revoker lists the
 * listening sessions once before it sends its sync and again every 100 ms while it waits: the same query seen started
 * twice on one backend means the sync was sent and the wait has begun.
 */
async function revokerWaiting(returned: () => boolean = () => false): Promise<void> {
  const firstSeen = new Map<number, string>();
  while (!returned()) {
    const { rows } = (await db().raw(
      `select pid, query_start::text as started from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid()
          and query like 'select pid from pg_stat_activity where application_name%'`,
    )) as { rows: { pid: number; started: string }[] };
    for (const { pid, started } of rows) {
      const first = firstSeen.get(pid);
      if (first === undefined) firstSeen.set(pid, started);
      else if (first !== started) return;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('a revocation and the API processes listening for it', () => {
  it('returns only after every listening session has heard it, however late its notification arrives', async () => {
    const user = await makeUser();
    const { events, socket } = await recordingSession();
    socket.pause();
    const revoking = revokeAccessToken(db(), user.token, everyApiProcessHeard).then((revoked) => {
      events.push('revoke returned');
      return revoked;
    });
    await revokerWaiting(() => events.includes('revoke returned'));
    // Nothing reaches the paused session, so the revoker is still waiting for its answer.
    expect(events).toEqual([]);
    socket.resume();
    expect(await revoking).toBe(true);
    expect(events).toEqual([`revoked ${hashSecret(user.token).toString('hex')}`, 'revoke returned']);
  });

  it('waits for no answer from a session that ends meanwhile', async () => {
    const { client, socket } = await recordingSession();
    socket.pause();
    // A wait far beyond the test's own timeout: it can only end because the session ended, unheard.
    const waiting = everyApiProcessHeard(db(), 3_600_000);
    await revokerWaiting();
    await db().raw('select pg_terminate_backend(?)', [client.processID]);
    await waiting;
    socket.resume();
  });

  it('gives up once the time it was given has passed, when a session cannot answer', async () => {
    const { socket } = await recordingSession();
    socket.pause();
    await everyApiProcessHeard(db(), 200);
    socket.resume();
  });
});
