// The webhook transport's handling of the receiver's answer (platform/webhook-transport.ts), with a replaced request
// function: nothing is dialled. The answer is kept bounded (its first 4 KB, decoded as UTF-8) and every transport
// holds its own connections.
import { EventEmitter } from 'node:events';
import type { ClientRequest, IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import {
  createWebhookTransport,
  RESPONSE_BODY_BYTES,
  responseText,
  type SendRequest,
} from '../../../platform/webhook-transport.js';

const target = {
  url: new URL('https://hooks.example.com/in'),
  hostname: 'hooks.example.com',
  address: '93.184.215.14',
  family: 4 as const,
};

/** A receiver that answers with this status, headers and body, in pieces of `piece` bytes. */
function answering(
  statusCode: number,
  headers: Record<string, string | string[]>,
  body: Buffer,
  piece = 1000,
) {
  const pieces: Buffer[] = [];
  for (let at = 0; at < body.length; at += piece) pieces.push(body.subarray(at, at + piece));
  const send: SendRequest = (_options, onResponse) =>
    Object.assign(new EventEmitter(), {
      end: () =>
        onResponse(
          Object.assign(Readable.from(pieces), { statusCode, headers }) as unknown as IncomingMessage,
        ),
      destroy: () => undefined,
    }) as unknown as ClientRequest;
  return createWebhookTransport(send);
}

const post = (transport: ReturnType<typeof createWebhookTransport>) =>
  transport.post(target, Buffer.from('{}'), {}, { timeoutMs: 5000, keepIdleMs: 0 });

describe("the receiver's answer", () => {
  it('keeps the status, the headers and exactly the first 4 KB of a longer body', async () => {
    const body = Buffer.from('a'.repeat(RESPONSE_BODY_BYTES - 1) + 'b' + 'c'.repeat(10_000));
    const result = await post(
      answering(202, { 'content-type': 'text/plain', 'set-cookie': ['a=1', 'b=2'] }, body),
    );
    expect(result).toMatchObject({ statusCode: 202, errorClass: null });
    expect(result.responseHeaders).toEqual({ 'content-type': 'text/plain', 'set-cookie': ['a=1', 'b=2'] });
    expect(result.responseBody).toBe('a'.repeat(RESPONSE_BODY_BYTES - 1) + 'b');
  });

  it('keeps a short body whole, and an empty one as empty text', async () => {
    expect((await post(answering(500, {}, Buffer.from('oops')))).responseBody).toBe('oops');
    expect((await post(answering(204, {}, Buffer.alloc(0)))).responseBody).toBe('');
  });

  it('decodes UTF-8, replacing invalid sequences, a character cut at 4 KB and NUL', async () => {
    // "é" is two bytes: the last one that fits is cut in half.
    const cut = Buffer.concat([Buffer.from('x'.repeat(RESPONSE_BODY_BYTES - 1)), Buffer.from('é')]);
    expect((await post(answering(200, {}, cut, 7))).responseBody).toBe(
      'x'.repeat(RESPONSE_BODY_BYTES - 1) + '\ufffd',
    );
    expect(responseText(Buffer.from([0x68, 0xff, 0x00, 0x69]))).toBe('h\ufffd\ufffdi');
  });

  it('has no answer when the connection fails', async () => {
    const send: SendRequest = () => {
      const request = Object.assign(new EventEmitter(), {
        end: () =>
          queueMicrotask(() =>
            request.emit('error', Object.assign(new Error('no'), { code: 'ECONNREFUSED' })),
          ),
        destroy: () => undefined,
      });
      return request as unknown as ClientRequest;
    };
    expect(await post(createWebhookTransport(send))).toMatchObject({
      statusCode: null,
      errorClass: 'connection_refused',
      responseHeaders: null,
      responseBody: null,
    });
  });
});

describe('transports', () => {
  it('hold their own kept connections, closed by close()', () => {
    const one = createWebhookTransport();
    const two = createWebhookTransport();
    const agent = one.requestOptions(target, {}, 4000).agent;
    expect(agent).toBe(one.requestOptions(target, {}, 4000).agent);
    expect(two.requestOptions(target, {}, 4000).agent).not.toBe(agent);
    one.close();
    expect(one.requestOptions(target, {}, 4000).agent).not.toBe(agent);
    two.close();
  });
});
