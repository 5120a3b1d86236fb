// The API process's own PostgreSQL session: that a revocation committed before `heardEverythingCommitted` is heard
// before it resolves, however late its notification reaches the process (README.md § Authentication).
import type pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { hashSecret, revokeAccessToken } from '../../../domain/accounts/credentials.js';
import { config } from '../../../platform/config.js';
import { db } from '../../../platform/database.js';
import { ProcessSession } from '../../../platform/process-session.js';
import { makeUser } from '../../support/api.js';

const sessions: ProcessSession[] = [];
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((session) => session.close()));
});

/** An open session recording, in order, the revocations it hears and the checks that resolve. */
async function recordingSession() {
  const session = new ProcessSession({
    connectionString: config().databaseUrl,
    log: { warn: () => undefined },
  });
  sessions.push(session);
  const events: string[] = [];
  session.subscribe({
    onCredentialRevoked: (hashHex) => events.push(`revoked ${hashHex}`),
    onReset: () => events.push('reset'),
  });
  const client = await session.open();
  events.length = 0;
  // pg's socket: paused, it holds back what PostgreSQL sends, as a busy process or network would.
  const socket = (client as unknown as { connection: { stream: NodeJS.ReadableStream } }).connection.stream;
  return { session, events, client, socket };
}

describe('ProcessSession.heardEverythingCommitted', () => {
  it('resolves only after the notification of a revocation committed before the call, however late it arrives', async () => {
    const user = await makeUser();
    const { session, events, socket } = await recordingSession();
    socket.pause();
    expect(await revokeAccessToken(db(), user.token)).toBe(true);
    const heard = session.heardEverythingCommitted().then(() => events.push('heard'));
    // Nothing can arrive while the socket is paused: the check is on the wire, its answer held back with the rest.
    await new Promise((resolve) => setImmediate(resolve));
    expect(events).toEqual([]);
    socket.resume();
    await heard;
    expect(events).toEqual([`revoked ${hashSecret(user.token).toString('hex')}`, 'heard']);
  });

  it('sends one query for the callers waiting together, and a new one for a caller who came after it was sent', async () => {
    const { session, client } = await recordingSession();
    let queries = 0;
    const query = client.query.bind(client) as (text: string) => Promise<pg.QueryResult>;
    (client as unknown as { query: typeof query }).query = (text) => (queries++, query(text));
    const first = session.heardEverythingCommitted();
    const later = [session.heardEverythingCommitted(), session.heardEverythingCommitted()];
    await Promise.all([first, ...later]);
    expect(queries).toBe(2);
  });

  it('rejects while the session is down, so the caller looks the credential up instead', async () => {
    const { session } = await recordingSession();
    await session.close();
    await expect(session.heardEverythingCommitted()).rejects.toThrow(/down/);
  });
});
