// The simple upload's incremental base64 decoder (domain/drive/base64-decoder.ts): the same answer for a text, however
// it is cut, as for the whole, and the rules of the whole string (standard alphabet, optional padding, whitespace).
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Base64Decoder } from '../../../domain/drive/base64-decoder.js';

/** Decodes `pieces` in order: the bytes, or undefined when the text is refused. */
function decode(pieces: string[]): Buffer | undefined {
  const decoder = new Base64Decoder();
  const out = pieces.map((piece) => decoder.write(piece));
  const last = decoder.end();
  if (last === undefined) return undefined;
  const bytes = Buffer.concat([...out, last]);
  expect(decoder.bytes).toBe(bytes.length);
  return bytes;
}

/** Every way of cutting `text` in two, and in three around each position. */
function cuts(text: string): string[][] {
  const ways: string[][] = [[text]];
  for (let i = 0; i <= text.length; i++) {
    ways.push([text.slice(0, i), text.slice(i)]);
    for (let j = i; j <= Math.min(text.length, i + 3); j++) ways.push([text.slice(0, i), text.slice(i, j), text.slice(j)]);
  }
  ways.push([...text]);
  return ways;
}

const VALID: [string, string, Buffer][] = [
  ['empty', '', Buffer.alloc(0)],
  ['padded', 'QUJD', Buffer.from('ABC')],
  ['two pad characters', 'QQ==', Buffer.from('A')],
  ['one pad character', 'QUI=', Buffer.from('AB')],
  ['unpadded, 2 left', 'QQ', Buffer.from('A')],
  ['unpadded, 3 left', 'QUI', Buffer.from('AB')],
  ['with + and /', '+/+/', Buffer.from([0xfb, 0xff, 0xbf])],
  ['76-column lines with CRLF', `${'QUJD'.repeat(19)}\r\n${'QUJD'.repeat(2)}\r\n`, Buffer.from('ABC'.repeat(21))],
  ['whitespace anywhere, also inside the padding', ' Q\tQ\n=\r= ', Buffer.from('A')],
  ['trailing bits a canonical encoder leaves zero', 'QR', Buffer.from('A')],
];

const INVALID: [string, string][] = [
  ['a lone trailing character', 'Q'],
  ['a lone character after whole quartets', 'QUJDQ'],
  ['padding that does not end at a quartet', 'QQ='],
  ['three pad characters', 'QQ==='],
  ['four pad characters', 'QUJD===='],
  ['padding only', '=='],
  ['data after padding', 'QQ==QUJD'],
  ['a character after the padding, whitespace between', 'QUI= Q'],
  ['URL-safe alphabet', 'QUJD-_'],
  ['punctuation', 'not base64!'],
  ['non-ASCII', 'QUJDé'],
  ['U+0000', 'QUJD\u0000'],
];

/** The whole-string check the route used before it streamed (git history of api/routes/drive/file-content.ts). */
function wholeStringReference(text: string): Buffer | undefined {
  const strict = (value: string) => {
    const unpadded = value.endsWith('==') ? value.slice(0, -2) : value.endsWith('=') ? value.slice(0, -1) : value;
    if (unpadded.length % 4 === 1 || (unpadded.length !== value.length && value.length % 4 !== 0)) return undefined;
    if (unpadded.includes('-') || unpadded.includes('_')) return undefined;
    const decoded = Buffer.from(unpadded, 'base64');
    return decoded.length === Math.floor((unpadded.length * 3) / 4) ? decoded : undefined;
  };
  return strict(text) ?? (/[\t\n\r ]/.test(text) ? strict(text.replace(/[\t\n\r ]+/g, '')) : undefined);
}

describe('Base64Decoder', () => {
  it('answers as the whole-string check did, on texts drawn from the alphabet, padding, whitespace and strangers', () => {
    const letters = 'QUJDRA+/=== \n\r\t-_!é';
    for (let round = 0; round < 20_000; round++) {
      const length = round % 13;
      let text = '';
      for (let i = 0; i < length; i++) text += letters[Math.floor(Math.random() * letters.length)];
      const cut = Math.floor(Math.random() * (length + 1));
      expect([text, decode([text.slice(0, cut), text.slice(cut)])]).toEqual([text, wholeStringReference(text)]);
    }
  });

  for (const [what, text, bytes] of VALID) {
    it(`decodes ${what}, however the text is cut`, () => {
      for (const pieces of cuts(text)) expect(decode(pieces)).toEqual(bytes);
    });
  }

  for (const [what, text] of INVALID) {
    it(`refuses ${what}, however the text is cut`, () => {
      for (const pieces of cuts(text)) expect(decode(pieces)).toBeUndefined();
    });
  }

  it('agrees with Buffer on random bytes in random pieces, padded and not, wrapped and not', () => {
    for (let round = 0; round < 50; round++) {
      const bytes = randomBytes(round * 37);
      let text = bytes.toString('base64');
      if (round % 2) text = text.replace(/=+$/, '');
      if (round % 3 === 0) text = text.replace(/(.{76})/g, '$1\n');
      const pieces: string[] = [];
      for (let at = 0; at < text.length; ) {
        const size = 1 + Math.floor(Math.random() * 17);
        pieces.push(text.slice(at, at + size));
        at += size;
      }
      expect(decode(pieces)).toEqual(bytes);
    }
  });

  it('decodes whole quartets as they arrive and keeps the rest for the next piece', () => {
    const decoder = new Base64Decoder();
    expect(decoder.write('QUJDQU')).toEqual(Buffer.from('ABC'));
    expect(decoder.write('JD')).toEqual(Buffer.from('ABC'));
    expect(decoder.end()).toEqual(Buffer.alloc(0));
  });

  it('knows an invalid text as soon as it is, and decodes nothing more', () => {
    const decoder = new Base64Decoder();
    decoder.write('QUJD');
    expect(decoder.write('QU!D')).toEqual(Buffer.alloc(0));
    expect(decoder.invalid).toBe(true);
    expect(decoder.write('QUJD')).toEqual(Buffer.alloc(0));
    expect(decoder.end()).toBeUndefined();
  });
});
