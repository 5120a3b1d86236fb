// The simple upload's body reader (api/middleware/streamed-json-object.ts): cut at every byte, it hands over what
// JSON.parse makes of the whole body (the members, and the streamed string's contents), and refuses what it refuses.
import { describe, expect, it } from 'vitest';
import { JsonSyntaxError, StreamedJsonObject } from '../../../api/middleware/streamed-json-object.js';

interface Read {
  members: Record<string, unknown>;
  streamed: string[];
  offsets: number[];
}

/** Reads `body` in the given pieces; what the events said, or the JsonSyntaxError thrown. */
function read(pieces: Buffer[]): Read | JsonSyntaxError {
  const result: Read = { members: {}, streamed: [], offsets: [] };
  let open = false;
  const reader = new StreamedJsonObject('data', {
    member: (name, value) => Object.defineProperty(result.members, name, { value, enumerable: true, writable: true, configurable: true }),
    stringStart: (offset) => {
      expect(open).toBe(false);
      open = true;
      result.offsets.push(offset);
      result.streamed.push('');
    },
    stringPiece: (text) => {
      expect(open).toBe(true);
      result.streamed[result.streamed.length - 1] += text;
    },
    stringEnd: () => {
      expect(open).toBe(true);
      open = false;
    },
  });
  try {
    for (const piece of pieces) reader.write(piece);
    reader.end();
  } catch (error) {
    if (error instanceof JsonSyntaxError) return error;
    throw error;
  }
  return result;
}

/** The body whole, cut once at every byte, cut in three around every byte, and byte by byte. */
function cuts(body: Buffer): Buffer[][] {
  const ways: Buffer[][] = [[body]];
  for (let i = 0; i <= body.length; i++) {
    ways.push([body.subarray(0, i), body.subarray(i)]);
    if (i + 2 <= body.length) ways.push([body.subarray(0, i), body.subarray(i, i + 2), body.subarray(i + 2)]);
  }
  ways.push([...body].map((byte) => Buffer.from([byte])));
  return ways;
}

/** What the reader should say of a body JSON.parse accepts: its members but a string `data`, and that string. */
function expected(text: string): { members: Record<string, unknown>; streamed: string[] } {
  const parsed = JSON.parse(text) as Record<string, unknown>;
  const members = { ...parsed };
  const streamed = typeof parsed.data === 'string' ? [parsed.data] : [];
  if (typeof parsed.data === 'string') delete members.data;
  return { members, streamed };
}

const VALID = [
  '{"name":"a.txt","content_type":"text/plain","data":"QUJD"}',
  '{"data":"QUJD","name":"a.txt","content_type":"text/plain","folder_uuid":null}',
  '{"name":"a.txt","data":"QUJD","content_type":"text/plain"}',
  ' \r\n\t{ "data" : "QU\\nJD\\r\\n\\t QQ==" , "name" : "b" } \n',
  '{"data":"\\/+\\/\\u0041\\u0042\\\\\\"","name":"\\"quoted\\" \\u00e9 \\ud83d\\ude00 é 😀"}',
  '{"d\\u0061ta":"QUJD","name":"escaped key"}',
  '{"data":42,"name":"a number"}',
  '{"data":null,"name":"null"}',
  '{"data":{"nested":["[{\\"]",1,-2.5e3,true,false,null]},"name":"object"}',
  '{"name":"x","extra":[[],{},[{"a":"}"}]],"n":-0.5,"t":true,"f":false,"z":null}',
  '{"data":"","name":""}',
  '{}',
  '{"name":"only"}',
  '{"data":"\\u00e9"}',
];

const INVALID = [
  '',
  '   ',
  '{"name":',
  '{"name":"a"',
  '{"data":"QUJD"',
  '{"data":"QUJD}',
  '{"data":"QUJD"}}',
  '{"data":"QUJD"} x',
  '{"a":1,}',
  '{,"a":1}',
  '{"a" 1}',
  '{"a":1 "b":2}',
  '{"a":tru}',
  '{"a":01}',
  '{"a":[1,}',
  '{"a":}',
  '{a:1}',
  "{'a':1}",
  '{"data":"QU\nJD"}',
  '{"data":"QU\tJD"}',
  '{"name":"a\nb"}',
  '{"data":"\\x"}',
  '{"data":"\\u12G4"}',
  '{"data":"\\u12"}',
  '{"name":"\\q"}',
  '[1]',
  '"text"',
  'null',
  '{"data":"QUJD"}{}',
];

describe('StreamedJsonObject', () => {
  for (const text of VALID) {
    it(`reads ${JSON.stringify(text)} as JSON.parse does, however it is cut`, () => {
      const body = Buffer.from(text);
      const want = expected(text);
      for (const pieces of cuts(body)) {
        const got = read(pieces);
        if (got instanceof JsonSyntaxError) throw new Error(`refused when cut as ${JSON.stringify(pieces.map(String))}: ${got.message}`);
        expect({ members: got.members, streamed: got.streamed }).toEqual(want);
      }
    });
  }

  for (const text of INVALID) {
    it(`refuses ${JSON.stringify(text)} however it is cut, as JSON.parse does (or as no object)`, () => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined;
      }
      expect(parsed === undefined || typeof parsed !== 'object' || Array.isArray(parsed) || parsed === null).toBe(true);
      for (const pieces of cuts(Buffer.from(text))) expect(read(pieces)).toBeInstanceOf(JsonSyntaxError);
    });
  }

  it('tells where the streamed string starts, in body bytes', () => {
    const text = '{"name":"é","data":"QUJD"}';
    const got = read([Buffer.from(text)]) as Read;
    expect(got.offsets).toEqual([Buffer.byteLength(text) - 'QUJD"}'.length]);
  });

  it('hands a raw non-ASCII byte of the streamed string over as some character outside ASCII', () => {
    const got = read([Buffer.from('{"data":"QU€JD"}')]) as Read;
    expect(got.streamed).toHaveLength(1);
    expect([...got.streamed[0]!.slice(2, -2)].every((char) => char.charCodeAt(0) > 0x7f)).toBe(true);
  });

  it('streams a long string in few pieces: one per write, escapes included', () => {
    const pieces: string[] = [];
    const reader = new StreamedJsonObject('data', { member: () => undefined, stringStart: () => undefined, stringPiece: (text) => pieces.push(text), stringEnd: () => undefined });
    const data = 'QUJD\\/'.repeat(10_000);
    reader.write(Buffer.from(`{"data":"${data}`));
    reader.write(Buffer.from(`${data}"}`));
    reader.end();
    expect(pieces).toHaveLength(2);
    expect(pieces.join('')).toBe('QUJD/'.repeat(20_000));
  });
});
