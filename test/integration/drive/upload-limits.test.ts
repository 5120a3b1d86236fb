// How many large simple uploads and document attachments one API process reads at once
// (FOLIO_MAX_CONCURRENT_LARGE_UPLOADS, 2 in the suite): past it 503 too_many_uploads with Retry-After, before any of
// the body is read (docs/drive-encryption.md § 5, docs/documents-api.md § Limits the spec leaves open).
// The interleaving is forced, not timed: each held upload sends `Expect: 100-continue`, and the server answers
// "100 Continue" only once the upload holds its slot; the test sends the body when it chooses.
import { randomBytes } from 'node:crypto';
import { request, type ClientRequest, type IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { apiUrl, call, firstApiUrl, makeDocument, makeUser, type TestUser } from '../../support/api.js';

const LIMIT = 2; // test/setup/global.ts

interface Answer {
  status: number;
  headers: IncomingMessage['headers'];
  body: any;
}

/** A simple upload's JSON body of about 20 MB: above the 10 MB that makes an upload large. */
function largeBody(name: string): Buffer {
  return Buffer.from(
    JSON.stringify({
      name,
      content_type: 'application/octet-stream',
      data: randomBytes(15_000_000).toString('base64'),
    }),
  );
}

/**
 * Starts a simple upload that declares its length and `Expect: 100-continue`, and sends nothing more. `admitted`
 * settles when the server asks for the body ("100 Continue": the upload holds a slot) or answers without it;
 * `send()` writes the whole body; `answer` is the final response.
 */
function heldUpload(
  user: TestUser,
  body: Buffer,
  path = '/v1/drive/files',
  contentType = 'application/json',
) {
  // The limit is each API process's own (it bounds that process's memory): every held upload goes to the same one.
  const req: ClientRequest = request(new URL(path, firstApiUrl()), {
    method: 'POST',
    headers: {
      authorization: `Bearer ${user.token}`,
      'content-type': contentType,
      'content-length': String(body.length),
      expect: '100-continue',
    },
  });
  let answered: (answer: Answer) => void;
  const answer = new Promise<Answer>((resolve, reject) => {
    answered = resolve;
    req.on('error', reject);
  });
  const admitted = new Promise<'continue' | 'answered'>((resolve) => {
    req.on('continue', () => resolve('continue'));
    req.on('response', (res) => {
      resolve('answered');
      let text = '';
      res.setEncoding('utf8').on('data', (piece) => (text += piece));
      res.on('end', () =>
        answered({ status: res.statusCode!, headers: res.headers, body: text ? JSON.parse(text) : null }),
      );
    });
  });
  req.flushHeaders();
  return { admitted, answer, send: () => req.end(body), abandon: () => req.destroy() };
}

describe('Concurrent large uploads', () => {
  it(
    `reads at most ${LIMIT} large uploads at once: the next gets 503 too_many_uploads with Retry-After, and a freed slot serves the next`,
    { timeout: 120_000 },
    async () => {
      const user = await makeUser();
      const held = [heldUpload(user, largeBody('held-0')), heldUpload(user, largeBody('held-1'))];
      // Both hold a slot once the server has asked for their bodies.
      expect(await Promise.all(held.map((upload) => upload.admitted))).toEqual(['continue', 'continue']);

      const refused = heldUpload(user, largeBody('refused'));
      expect(await refused.admitted).toBe('answered');
      const answer = await refused.answer;
      expect(answer.status).toBe(503);
      expect(answer.body).toEqual({ error: 'too_many_uploads' });
      expect(answer.headers['retry-after']).toBe('5');
      refused.abandon();
      // Small uploads are not held back meanwhile.
      const small = await call('POST', '/v1/drive/files', {
        token: user.token,
        json: { name: 'small', content_type: 'text/plain', data: 'aGk=' },
      });
      expect(small.status).toBe(201);

      // The first held upload completes; its slot is free by the time its answer arrives.
      held[0]!.send();
      expect((await held[0]!.answer).status).toBe(201);
      const next = heldUpload(user, largeBody('next'));
      expect(await next.admitted).toBe('continue');
      next.send();
      held[1]!.send();
      expect((await next.answer).status).toBe(201);
      expect((await held[1]!.answer).status).toBe(201);
    },
  );

  it(
    'counts a large document attachment against the same slots: a third large body waits for one, whichever route it takes',
    { timeout: 120_000 },
    async () => {
      const user = await makeUser();
      const document = await makeDocument(user, { title: 'attachments' });
      const attachment = (name: string) =>
        heldUpload(
          user,
          randomBytes(11_000_000),
          `/v1/documents/${document.uuid}/attachments?filename=${name}.bin`,
          'application/octet-stream',
        );
      const held = [attachment('held-0'), heldUpload(user, largeBody('held-1'))];
      expect(await Promise.all(held.map((upload) => upload.admitted))).toEqual(['continue', 'continue']);

      const refused = attachment('refused');
      expect(await refused.admitted).toBe('answered');
      const answer = await refused.answer;
      expect(answer.status).toBe(503);
      expect(answer.body).toEqual({ error: 'too_many_uploads', error_description: expect.any(String) });
      expect(answer.headers['retry-after']).toBe('5');
      refused.abandon();
      // A small attachment is not held back meanwhile.
      const small = await call('POST', `/v1/documents/${document.uuid}/attachments?filename=small.txt`, {
        token: user.token,
        body: Buffer.from('hello'),
        headers: { 'content-type': 'application/octet-stream' },
      });
      expect(small.status).toBe(201);

      // The attachment holding a slot completes and frees it; the next large attachment is admitted.
      held[0]!.send();
      expect((await held[0]!.answer).status).toBe(201);
      const next = attachment('next');
      expect(await next.admitted).toBe('continue');
      next.send();
      held[1]!.send();
      expect((await next.answer).status).toBe(201);
      expect((await held[1]!.answer).status).toBe(201);
    },
  );

  it('answers a too large declared length with 413 before the client sends its body', async () => {
    const user = await makeUser();
    // A declared length past the cap's bound, with no body to follow.
    const req = request(new URL('/v1/drive/files', apiUrl()), {
      method: 'POST',
      headers: {
        authorization: `Bearer ${user.token}`,
        'content-type': 'application/json',
        'content-length': '200000000',
        expect: '100-continue',
      },
    });
    const status = await new Promise<number | 'continue'>((resolve, reject) => {
      req.on('continue', () => resolve('continue'));
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode!);
      });
      req.on('error', reject);
      req.flushHeaders();
    });
    req.destroy();
    expect(status).toBe(413);
  });
});
