// The streamed simple upload's base64 reader (domain/drive/base64-stream.ts) against the whole-string rules and
// Node's own decoding, on random texts cut into random pieces; and the streamed JSON object reader against JSON.parse.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  Base64StreamDecoder,
  decodeStandardBase64,
  RawControlCharacter,
} from '../../../domain/drive/base64-stream.js';
import { JsonBodyError, StreamedJsonObject } from '../../../api/input/streamed-json-object.js';

/** A deterministic generator, so a failure repeats (mulberry32). */
function random(seed: number) {
  let state = seed;
  return (below: number) => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * below);
  };
}

/** Decodes `text` streamed in random pieces into chunks of `chunkBytes`; undefined when it is refused. */
function streamDecode(text: Buffer, chunkBytes: number, next: (below: number) => number) {
  const chunks: Buffer[] = [];
  const decoder = new Base64StreamDecoder(chunkBytes, (chunk) => void chunks.push(Buffer.from(chunk)), false);
  let at = 0;
  while (at < text.length) {
    const length = 1 + next(Math.min(text.length - at, next(20) === 0 ? 9 : 70_000));
    decoder.write(text.subarray(at, at + length));
    at += length;
  }
  const rest = decoder.end();
  if (!rest) return undefined;
  expect(chunks.every((chunk) => chunk.length === chunkBytes)).toBe(true);
  const decoded = Buffer.concat([...chunks, rest]);
  expect(decoder.bytes).toBe(decoded.length);
  return decoded;
}

const wrap = (text: string, width: number, separator: string) =>
  text.match(new RegExp(`.{1,${width}}`, 'gs'))?.join(separator) ?? '';

describe('Base64StreamDecoder', () => {
  it('decodes valid base64 (padded, unpadded, wrapped) to what Buffer.from decodes, in any pieces', () => {
    const next = random(1);
    for (let round = 0; round < 300; round++) {
      const bytes = randomBytes(next(3) === 0 ? next(40) : next(200_000));
      let text = bytes.toString('base64');
      if (next(3) === 0) text = text.replace(/=+$/, '');
      if (next(3) === 0) text = wrap(text, 76, next(2) ? '\r\n' : '\n');
      if (next(5) === 0) text = ` \t${text}\n`;
      const chunkBytes = 1 + next(next(4) === 0 ? 50 : 300_000);
      const decoded = streamDecode(Buffer.from(text, 'latin1'), chunkBytes, next);
      expect(decoded?.equals(bytes), `round ${round}`).toBe(true);
      expect(decodeStandardBase64(text)?.equals(bytes)).toBe(true);
    }
  });

  it('refuses exactly what the whole-string rules refuse, on texts with one fault put anywhere', () => {
    const next = random(2);
    const faults = ['-', '_', '=', '==', '===', '!', '"', '\u00e9', '\u0000', 'A', 'AB', '.', '*', '= ='];
    let refused = 0;
    for (let round = 0; round < 2_000; round++) {
      let text = randomBytes(next(3) === 0 ? next(12) : next(3_000)).toString('base64');
      if (next(2)) text = text.replace(/=+$/, '');
      if (next(3) === 0) text = wrap(text, 76, '\n');
      const fault = faults[next(faults.length)]!;
      const at = next(4) === 0 ? text.length : next(text.length + 1);
      text = text.slice(0, at) + fault + text.slice(at);
      const whole = decodeStandardBase64(text);
      const streamed = streamDecode(Buffer.from(text, 'latin1'), 1 + next(5_000), next);
      expect(streamed === undefined, `round ${round}: ${JSON.stringify(text.slice(-20))}`).toBe(
        whole === undefined,
      );
      if (whole) expect(streamed!.equals(whole)).toBe(true);
      else refused++;
    }
    expect(refused).toBeGreaterThan(1_000);
  });

  it('tells how many bytes the window takes before the next chunk is handed on', () => {
    const chunks: Buffer[] = [];
    const decoder = new Base64StreamDecoder(10, (chunk) => void chunks.push(Buffer.from(chunk)), false);
    expect(decoder.room).toBe(10);
    decoder.write(Buffer.from('QUJDREVG'));
    expect(decoder.room).toBe(4);
    decoder.write(Buffer.from('R0hJSktM'));
    expect(chunks.map((chunk) => chunk.toString())).toEqual(['ABCDEFGHIJ']);
    expect(decoder.room).toBe(8);
    expect(decoder.end()?.toString()).toBe('KL');
  });

  it('in a JSON string, refuses a raw control character (not JSON) and skips escaped whitespace', () => {
    const decoder = new Base64StreamDecoder(16, () => undefined);
    expect(() => decoder.write(Buffer.from('QUJD\nQUJD'))).toThrow(RawControlCharacter);
    const next = random(3);
    for (let round = 0; round < 50; round++) {
      const bytes = randomBytes(next(30_000));
      const text = wrap(bytes.toString('base64'), 76, next(2) ? '\r\n' : '\n');
      // JSON.stringify escapes the line breaks; "/" may be escaped too.
      const body = JSON.stringify({ data: text }).replace(/\//g, '\\/');
      const chunks: Buffer[] = [];
      const inJson = new Base64StreamDecoder(1000, (chunk) => void chunks.push(Buffer.from(chunk)));
      const reader = new StreamedJsonObject('data', {
        member: () => undefined,
        stringStart: () => undefined,
        stringPiece: (piece) => inJson.write(piece),
        stringEnd: () => void chunks.push(Buffer.from(inJson.end()!)),
      });
      const raw = Buffer.from(body);
      for (let at = 0; at < raw.length;) {
        const length = 1 + next(5000);
        reader.write(raw.subarray(at, at + length));
        at += length;
      }
      reader.end();
      expect(Buffer.concat(chunks).equals(bytes)).toBe(true);
    }
  });
});

/** Reads `text` cut into pieces of `size` bytes; answers the members, the streamed string and any refusal. */
function readObject(text: string, size: number) {
  const members: Record<string, unknown> = {};
  let streamed: string | undefined;
  const reader = new StreamedJsonObject('data', {
    member: (name, value) => (members[name] = value),
    stringStart: () => (streamed = ''),
    stringPiece: (bytes) => (streamed += bytes.toString('latin1')),
    stringEnd: () => undefined,
  });
  const bytes = Buffer.from(text);
  try {
    for (let at = 0; at < bytes.length; at += size) reader.write(bytes.subarray(at, at + size));
    reader.end();
  } catch (error) {
    if (error instanceof JsonBodyError || (error as { status?: number }).status === 400) return 'refused';
    throw error;
  }
  return { members, streamed };
}

describe('StreamedJsonObject', () => {
  const bodies = [
    '{"name":"a.bin","content_type":"text/plain","data":"QUJD"}',
    ' { "data" : "QU\\/D\\n" , "name" : "x\\"y" , "folder_uuid" : null , "n": -1.5e3, "t": true, "o": {"a":[1,{"b":"}"}]} } ',
    '{}',
    '{"data": 5}',
    '{"data":"QUJD","data":"QUFB"}',
  ];
  it('reads each member as JSON.parse does, cut at every byte', () => {
    for (const body of bodies) {
      const parsed = JSON.parse(body) as Record<string, unknown>;
      for (let size = 1; size <= body.length; size++) {
        const read = readObject(body, size);
        expect(read).not.toBe('refused');
        const { members, streamed } = read as Exclude<typeof read, 'refused'>;
        const { data, ...rest } = parsed;
        const { data: memberData, ...restMembers } = members;
        expect(restMembers).toEqual(rest);
        // The streamed string as stringPiece gives it: escaped whitespace left out.
        if (typeof data === 'string') expect(streamed).toBe(data.replace(/[\n\r\t ]/g, ''));
        else expect(memberData).toEqual(data);
      }
    }
  });

  it('refuses what JSON.parse refuses, and nesting past 64 levels while it reads', () => {
    for (const body of [
      '[]',
      '"x"',
      '{"a":1,}',
      '{"a" 1}',
      '{"a":tru}',
      '{"data":"QUJD"',
      '{"data":"\\x"}',
      '{"data":"\\u00zz"}',
      '{"a":1}}',
      '{"__proto__":{}}',
      `{"a":${'['.repeat(64)}${']'.repeat(64)}}`,
    ])
      for (const size of [1, 3, 1000]) expect(readObject(body, size), body).toBe('refused');
    expect(readObject(`{"a":${'['.repeat(63)}${']'.repeat(63)}}`, 7)).not.toBe('refused');
    // Refused before the rest is read: the 65th level throws on the byte that opens it.
    const reader = new StreamedJsonObject('data', {
      member: () => undefined,
      stringStart: () => undefined,
      stringPiece: () => undefined,
      stringEnd: () => undefined,
    });
    expect(() => reader.write(Buffer.from(`{"a":${'['.repeat(64)}`))).toThrow(JsonBodyError);
  });
});
