// A JSON object read as its bytes arrive, with one top-level string member handed on in pieces instead of held: the
// large simple upload's body, whose `data` is up to ~140 MB of base64 (docs/drive-encryption.md § 5). The other members
// are small: each is captured whole and parsed by parseJsonValue, within the bounds every JSON body has; nesting past
// MAX_JSON_DEPTH is refused as soon as it is read. The streamed string is searched for its next quote or backslash
// (Buffer.indexOf), never stepped byte by byte: its characters are checked by the base64 reader they go to.
import { MAX_JSON_DEPTH, MAX_JSON_MEMBERS } from '../../domain/bounded-json.js';
import { parseJsonValue } from '../middleware/json-body.js';

/** The body is not one JSON object within the bounds; its message is the answer's. */
export class JsonBodyError extends Error {}

export interface StreamedObjectEvents {
  /** A top-level member other than the streamed string (the streamed name too when its value is not a string). */
  member(name: string, value: unknown): void;
  /** The streamed member's string begins, its first character at byte `offset` of the body. */
  stringStart(offset: number): void;
  /**
   * Characters of the streamed string, as bytes (each ASCII character one byte), at most once per write: escapes
   * resolved, except that an escaped ASCII whitespace character (`\n`, `\r`, `\t`, `\u0020`) is left out (base64
   * ignores it) and any other escaped character outside printable ASCII is given as 0xFF (never base64). A raw control
   * character stays as it is: the receiver refuses it (it is not JSON).
   */
  stringPiece(bytes: Buffer): void;
  stringEnd(): void;
}

const enum State {
  BeforeObject,
  FirstKey,
  NextKey,
  Key,
  AfterKey,
  BeforeValue,
  Value,
  Streamed,
  StreamedEscape,
  StreamedUnicode,
  AfterValue,
  AfterObject,
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const isWhitespace = (byte: number) => byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
/** What each one-character escape stands for. */
const ESCAPES = new Map<number, number>([
  [0x22, 0x22],
  [0x5c, 0x5c],
  [0x2f, 0x2f],
  [0x62, 0x08],
  [0x66, 0x0c],
  [0x6e, 0x0a],
  [0x72, 0x0d],
  [0x74, 0x09],
]);
const HEX = /^[0-9a-fA-F]{4}$/;
/** One-byte buffers of each byte, for the characters escapes stand for. */
const ESCAPED = Array.from({ length: 256 }, (_, byte) => Buffer.of(byte));
/** Where a literal (number, true, false, null) ends. */
const endsLiteral = (byte: number) =>
  isWhitespace(byte) || byte === 0x2c || byte === 0x7d || byte === 0x5d || byte === 0x7b || byte === 0x5b;

export class StreamedJsonObject {
  private state = State.BeforeObject;
  /** Body bytes read before the current chunk. */
  private consumed = 0;
  private key = '';
  private members = 0;
  /** The key or value being captured, in the pieces it arrived in. */
  private captured: Buffer[] = [];
  private kind: 'string' | 'container' | 'literal' = 'literal';
  private escaped = false;
  private inString = false;
  private depth = 0;
  private unicode = '';
  /** The streamed string's characters read by this write and not yet handed on. */
  private pending: Buffer[] = [];
  /** A chunk already searched to its end for a backslash, in vain. */
  private noBackslashIn: Buffer | undefined;

  constructor(
    private readonly streamed: string,
    private readonly events: StreamedObjectEvents,
  ) {}

  /** The next bytes of the body; throws JsonBodyError where JSON.parse (or the bounds) would refuse the whole. */
  write(chunk: Buffer): void {
    let pos = 0;
    while (pos < chunk.length) pos = this.step(chunk, pos);
    this.flushString();
    this.noBackslashIn = undefined;
    this.consumed += chunk.length;
  }

  /** The body ended: throws JsonBodyError unless it held one whole object. */
  end(): void {
    if (this.state === State.Value && this.kind === 'literal') this.finishValue();
    if (this.state !== State.AfterObject) throw new JsonBodyError('The request body is not valid JSON.');
  }

  /** One transition from `pos`; answers the position of the next byte to read. */
  private step(chunk: Buffer, pos: number): number {
    const byte = chunk[pos]!;
    switch (this.state) {
      case State.BeforeObject:
        this.expectByte(byte, 0x7b, State.FirstKey, 'The body must be a JSON object.');
        return pos + 1;
      case State.FirstKey:
      case State.NextKey:
        if (isWhitespace(byte)) return pos + 1;
        if (byte === 0x7d && this.state === State.FirstKey) {
          this.state = State.AfterObject;
          return pos + 1;
        }
        if (byte !== QUOTE) throw new JsonBodyError('The request body is not valid JSON.');
        if (++this.members > MAX_JSON_MEMBERS)
          throw new JsonBodyError(`The request body has an object of more than ${MAX_JSON_MEMBERS} members.`);
        this.startCapture('string');
        this.state = State.Key;
        return pos + 1;
      case State.Key:
        return this.captureKey(chunk, pos);
      case State.AfterKey:
        this.expectByte(byte, 0x3a, State.BeforeValue);
        return pos + 1;
      case State.BeforeValue:
        if (isWhitespace(byte)) return pos + 1;
        if (byte === QUOTE && this.key === this.streamed) {
          this.events.stringStart(this.consumed + pos + 1);
          this.state = State.Streamed;
          return pos + 1;
        }
        this.startCapture(
          byte === QUOTE ? 'string' : byte === 0x7b || byte === 0x5b ? 'container' : 'literal',
        );
        this.state = State.Value;
        if (this.kind !== 'string') return this.captureValue(chunk, pos);
        // A string's opening quote, then its contents.
        this.captured.push(chunk.subarray(pos, pos + 1));
        this.inString = true;
        return pos + 1;
      case State.Value:
        return this.captureValue(chunk, pos);
      case State.Streamed:
        return this.streamString(chunk, pos);
      case State.StreamedEscape: {
        if (byte === 0x75) {
          this.unicode = '';
          this.state = State.StreamedUnicode;
          return pos + 1;
        }
        const stands = ESCAPES.get(byte);
        if (stands === undefined) throw new JsonBodyError('The request body is not valid JSON.');
        this.escapedCharacter(stands);
        this.state = State.Streamed;
        return pos + 1;
      }
      case State.StreamedUnicode:
        this.unicode += String.fromCharCode(byte);
        if (this.unicode.length === 4) {
          if (!HEX.test(this.unicode)) throw new JsonBodyError('The request body is not valid JSON.');
          this.escapedCharacter(parseInt(this.unicode, 16));
          this.state = State.Streamed;
        }
        return pos + 1;
      case State.AfterValue:
        if (byte === 0x7d) this.state = State.AfterObject;
        else this.expectByte(byte, 0x2c, State.NextKey);
        return pos + 1;
      case State.AfterObject:
        if (!isWhitespace(byte)) throw new JsonBodyError('The request body is not valid JSON.');
        return pos + 1;
    }
  }

  /** Whitespace is passed over; any other byte must be `wanted`, which moves the reader to `next`. */
  private expectByte(
    byte: number,
    wanted: number,
    next: State,
    refusal = 'The request body is not valid JSON.',
  ): void {
    if (isWhitespace(byte)) return;
    if (byte !== wanted) throw new JsonBodyError(refusal);
    this.state = next;
  }

  /** The streamed string up to its next escape or its end: the runs between are searched, not stepped. */
  private streamString(chunk: Buffer, pos: number): number {
    const quote = chunk.indexOf(QUOTE, pos);
    const backslash = this.noBackslashIn === chunk ? -1 : chunk.indexOf(BACKSLASH, pos);
    if (backslash < 0) this.noBackslashIn = chunk;
    const stop = quote < 0 ? backslash : backslash < 0 ? quote : Math.min(quote, backslash);
    const end = stop < 0 ? chunk.length : stop;
    if (end > pos) this.pending.push(chunk.subarray(pos, end));
    if (stop < 0) return chunk.length;
    if (stop === backslash) this.state = State.StreamedEscape;
    else {
      this.flushString();
      this.events.stringEnd();
      this.state = State.AfterValue;
    }
    return stop + 1;
  }

  /** What an escape in the streamed string stands for, as stringPiece describes. */
  private escapedCharacter(code: number): void {
    if (code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09) return;
    this.pending.push(ESCAPED[code < 0x80 && code >= 0x20 ? code : 0xff]!);
  }

  /** The streamed string's characters read by this write, in one piece (joined only when escapes cut them). */
  private flushString(): void {
    if (this.pending.length === 0) return;
    this.events.stringPiece(this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending));
    this.pending = [];
  }

  private startCapture(kind: 'string' | 'container' | 'literal'): void {
    this.kind = kind;
    this.captured = [];
    this.escaped = false;
    this.inString = false;
    this.depth = 0;
  }

  /** A member name's bytes through its closing quote. */
  private captureKey(chunk: Buffer, pos: number): number {
    for (let at = pos; at < chunk.length; at++) {
      const byte = chunk[at]!;
      if (this.escaped) this.escaped = false;
      else if (byte === BACKSLASH) this.escaped = true;
      else if (byte === QUOTE) {
        this.captured.push(chunk.subarray(pos, at));
        const text = Buffer.concat(this.captured).toString('utf8');
        this.captured = [];
        try {
          this.key = JSON.parse(`"${text}"`) as string;
        } catch {
          throw new JsonBodyError('The request body is not valid JSON.');
        }
        if (this.key === '__proto__') throw new JsonBodyError('The request body is not valid JSON.');
        this.state = State.AfterKey;
        return at + 1;
      }
    }
    this.captured.push(chunk.subarray(pos));
    return chunk.length;
  }

  /** A value's bytes through its end: a string's closing quote, a container's closing bracket, a literal's delimiter. */
  private captureValue(chunk: Buffer, pos: number): number {
    let at = pos;
    let done = false;
    for (; at < chunk.length; at++) {
      const byte = chunk[at]!;
      if (this.kind === 'literal') {
        if (endsLiteral(byte)) {
          done = true;
          break;
        }
      } else if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (byte === BACKSLASH) this.escaped = true;
        else if (byte === QUOTE) {
          this.inString = false;
          if (this.kind === 'string') {
            done = true;
            at++;
            break;
          }
        }
      } else if (byte === QUOTE) {
        this.inString = true;
      } else if (byte === 0x7b || byte === 0x5b) {
        // The top-level object is the first level.
        if (++this.depth + 1 > MAX_JSON_DEPTH)
          throw new JsonBodyError(
            `The request body nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels.`,
          );
      } else if ((byte === 0x7d || byte === 0x5d) && --this.depth === 0) {
        done = true;
        at++;
        break;
      }
    }
    this.captured.push(chunk.subarray(pos, at));
    if (done) this.finishValue();
    return at;
  }

  private finishValue(): void {
    const text = Buffer.concat(this.captured).toString('utf8');
    this.captured = [];
    let value: unknown;
    try {
      value = parseJsonValue(text, MAX_JSON_DEPTH - 1);
    } catch (error) {
      throw new JsonBodyError((error as Error).message);
    }
    this.events.member(this.key, value);
    this.state = State.AfterValue;
  }
}
