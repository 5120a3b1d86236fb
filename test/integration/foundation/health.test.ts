import { describe, expect, it } from 'vitest';
import { call } from '../../support/api.js';

describe('health and the HTTP edge', () => {
  it('answers /healthz while the process lives', async () => {
    const response = await call('GET', '/healthz');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ok' });
  });

  it('answers /readyz 200 when PostgreSQL, Temporal and object storage answer', async () => {
    const response = await call('GET', '/readyz');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      status: 'ready',
      checks: { postgres: 'ok', temporal: 'ok', storage: 'ok' },
    });
  });

  it('gives every response a request id, and echoes a safe one the client sent', async () => {
    const generated = await call('GET', '/healthz');
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const echoed = await call('GET', '/healthz', { headers: { 'x-request-id': 'client-abc.1' } });
    expect(echoed.headers.get('x-request-id')).toBe('client-abc.1');
    const replaced = await call('GET', '/healthz', { headers: { 'x-request-id': 'bad id with spaces' } });
    expect(replaced.headers.get('x-request-id')).not.toBe('bad id with spaces');
  });

  it('answers 404 not_found for an unknown route outside /v1', async () => {
    const response = await call('GET', '/no/such/route');
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ error: 'not_found', error_description: 'No such route.' });
  });

  it('answers 405 with Allow for a wrong method on a known path outside /v1', async () => {
    const response = await call('POST', '/healthz');
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD');
    expect(response.body).toMatchObject({ error: 'method_not_allowed' });
  });
});
