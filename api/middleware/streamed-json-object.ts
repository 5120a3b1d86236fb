// A JSON object read as its bytes arrive, with one top-level string member streamed instead of held: the simple
// upload's body, whose `data` is up to ~140 MB of base64 (docs/drive-encryption.md § Simple upload). The other members
// are small; each is captured whole and handed over parsed by JSON.parse, so their grammar is exactly JSON's. The
// streamed string is checked here as JSON.parse would check it (no raw control characters, known escapes only).
// No tokenizer library is a direct dependency, and this one object shape needs none.

export class JsonSyntaxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JsonSyntaxError';
  }
}

export interface StreamedObjectEvents {
  /** A top-level member other than the streamed string, parsed (the streamed name too when its value is no string). */
  member(name: string, value: unknown): void;
  /** The streamed member's string starts; `offset` counts the body bytes before its first character. */
  stringStart(offset: number): void;
  /**
   * Contents of the streamed string, escapes resolved. Raw bytes arrive read as Latin-1: exact for ASCII (all that
   * base64 holds); any other byte becomes some character outside ASCII's range, which a base64 reader refuses anyway.
   */
  stringPiece(text: string): void;
  stringEnd(): void;
}

const enum State {
  BeforeObject,
  FirstKey,
  Key,
  AfterKey,
  BeforeValue,
  Value,
  Streamed,
  StreamedEscape,
  StreamedUnicode,
  AfterValue,
  NextKey,
  AfterObject,
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const isWhitespace = (byte: number) => byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
/** Bytes a number or a literal (true, false, null) may hold; JSON.parse judges the whole. */
const isLiteralByte = (byte: number) => (byte >= 0x30 && byte <= 0x39) || (byte >= 0x61 && byte <= 0x7a) || (byte >= 0x41 && byte <= 0x5a) || byte === 0x2b || byte === 0x2d || byte === 0x2e;
// eslint-disable-next-line no-control-regex -- the control characters JSON forbids raw in a string
const CONTROL = /[\x00-\x1f]/;
const SIMPLE_ESCAPES: Record<number, string> = { 0x22: '"', 0x5c: '\\', 0x2f: '/', 0x62: '\b', 0x66: '\f', 0x6e: '\n', 0x72: '\r', 0x74: '\t' };

export class StreamedJsonObject {
  private state = State.BeforeObject;
  private offset = 0;
  private key = '';
  /** Raw bytes of the key or value being captured. */
  private captured: Buffer[] = [];
  private escaped = false;
  private inString = false;
  private depth = 0;
  private kind: 'string' | 'container' | 'literal' = 'literal';
  private unicode = '';
  /** Streamed contents of the current write, handed over once per write (escapes would otherwise cut it small). */
  private pieces: string[] = [];

  constructor(
    private readonly streamed: string,
    private readonly events: StreamedObjectEvents,
  ) {}

  /** Reads the next bytes of the body; throws JsonSyntaxError where JSON.parse would refuse the whole. */
  write(chunk: Buffer): void {
    let pos = 0;
    while (pos < chunk.length) pos = this.step(chunk, pos);
    this.offset += chunk.length;
    this.flushPieces();
  }

  /** The body ended: throws unless it held one whole object. */
  end(): void {
    if (this.state === State.Value && this.kind === 'literal') this.finishValue();
    if (this.state !== State.AfterObject) throw new JsonSyntaxError('the body ends before its object does');
  }

  /** One transition from `pos`; answers the position of the next unread byte. */
  private step(chunk: Buffer, pos: number): number {
    const byte = chunk[pos]!;
    switch (this.state) {
      case State.BeforeObject:
        if (isWhitespace(byte)) return pos + 1;
        if (byte !== 0x7b) throw new JsonSyntaxError('the body is not a JSON object');
        this.state = State.FirstKey;
        return pos + 1;
      case State.FirstKey:
      case State.NextKey:
        if (isWhitespace(byte)) return pos + 1;
        if (byte === 0x7d && this.state === State.FirstKey) {
          this.state = State.AfterObject;
          return pos + 1;
        }
        if (byte !== QUOTE) throw new JsonSyntaxError('a member name was expected');
        this.startCapture('string');
        this.state = State.Key;
        return pos + 1;
      case State.Key: {
        const end = this.captureString(chunk, pos);
        if (end < 0) return chunk.length;
        this.key = this.parseCaptured() as string;
        this.state = State.AfterKey;
        return end;
      }
      case State.AfterKey:
        if (isWhitespace(byte)) return pos + 1;
        if (byte !== 0x3a) throw new JsonSyntaxError('":" was expected');
        this.state = State.BeforeValue;
        return pos + 1;
      case State.BeforeValue:
        if (isWhitespace(byte)) return pos + 1;
        if (byte === QUOTE && this.key === this.streamed) {
          this.events.stringStart(this.offset + pos + 1);
          this.state = State.Streamed;
          return pos + 1;
        }
        this.startCapture(byte === QUOTE ? 'string' : byte === 0x7b || byte === 0x5b ? 'container' : 'literal');
        this.state = State.Value;
        return this.kind === 'literal' ? pos : this.captureByte(chunk, pos);
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
        const resolved = SIMPLE_ESCAPES[byte];
        if (resolved === undefined) throw new JsonSyntaxError('an unknown escape in a string');
        this.pieces.push(resolved);
        this.state = State.Streamed;
        return pos + 1;
      }
      case State.StreamedUnicode:
        if (!/[0-9a-fA-F]/.test(String.fromCharCode(byte))) throw new JsonSyntaxError('a \\u escape needs 4 hex digits');
        this.unicode += String.fromCharCode(byte);
        if (this.unicode.length === 4) {
          this.pieces.push(String.fromCharCode(parseInt(this.unicode, 16)));
          this.state = State.Streamed;
        }
        return pos + 1;
      case State.AfterValue:
        if (isWhitespace(byte)) return pos + 1;
        if (byte === 0x2c) this.state = State.NextKey;
        else if (byte === 0x7d) this.state = State.AfterObject;
        else throw new JsonSyntaxError('"," or "}" was expected');
        return pos + 1;
      case State.AfterObject:
        if (!isWhitespace(byte)) throw new JsonSyntaxError('bytes follow the object');
        return pos + 1;
    }
  }

  /** The streamed string up to its next escape or its end, in one piece: the long runs between are searched, not stepped. */
  private streamString(chunk: Buffer, pos: number): number {
    const quote = chunk.indexOf(QUOTE, pos);
    const backslash = chunk.indexOf(BACKSLASH, pos);
    const stop = quote < 0 ? backslash : backslash < 0 ? quote : Math.min(quote, backslash);
    const end = stop < 0 ? chunk.length : stop;
    if (end > pos) {
      const text = chunk.toString('latin1', pos, end);
      if (CONTROL.test(text)) throw new JsonSyntaxError('a control character in a string');
      this.pieces.push(text);
    }
    if (stop < 0) return chunk.length;
    if (stop === backslash) {
      this.state = State.StreamedEscape;
    } else {
      this.flushPieces();
      this.events.stringEnd();
      this.state = State.AfterValue;
    }
    return stop + 1;
  }

  private flushPieces(): void {
    if (this.pieces.length === 0) return;
    const text = this.pieces.length === 1 ? this.pieces[0]! : this.pieces.join('');
    this.pieces = [];
    this.events.stringPiece(text);
  }

  private startCapture(kind: 'string' | 'container' | 'literal'): void {
    this.kind = kind;
    this.captured = [];
    this.escaped = false;
    this.inString = false;
    this.depth = 0;
  }

  /** Captures a key's or a string value's bytes through its closing quote; -1 when the chunk ends first. */
  private captureString(chunk: Buffer, pos: number): number {
    for (let at = pos; at < chunk.length; at++) {
      const byte = chunk[at]!;
      if (this.escaped) this.escaped = false;
      else if (byte === BACKSLASH) this.escaped = true;
      else if (byte === QUOTE) {
        this.captured.push(chunk.subarray(pos, at));
        return at + 1;
      }
    }
    this.captured.push(chunk.subarray(pos));
    return -1;
  }

  /** Captures the byte at `pos` of a value just begun (its opening quote or bracket). */
  private captureByte(chunk: Buffer, pos: number): number {
    this.captured.push(chunk.subarray(pos, pos + 1));
    if (this.kind === 'string') this.inString = true;
    else this.depth = 1;
    return pos + 1;
  }

  private captureValue(chunk: Buffer, pos: number): number {
    let at = pos;
    for (; at < chunk.length; at++) {
      const byte = chunk[at]!;
      if (this.kind === 'literal') {
        if (!isLiteralByte(byte)) break;
        continue;
      }
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (byte === BACKSLASH) this.escaped = true;
        else if (byte === QUOTE) {
          this.inString = false;
          if (this.kind === 'string') {
            at++;
            break;
          }
        }
        continue;
      }
      if (byte === QUOTE) this.inString = true;
      else if (byte === 0x7b || byte === 0x5b) this.depth++;
      else if ((byte === 0x7d || byte === 0x5d) && --this.depth === 0) {
        at++;
        break;
      }
    }
    this.captured.push(chunk.subarray(pos, at));
    const done = this.kind === 'literal' ? at < chunk.length : (this.kind === 'string' && !this.inString) || (this.kind === 'container' && this.depth === 0);
    if (done) this.finishValue();
    return at;
  }

  private finishValue(): void {
    this.events.member(this.key, this.parseCaptured());
    this.state = State.AfterValue;
  }

  private parseCaptured(): unknown {
    const raw = Buffer.concat(this.captured).toString('utf8');
    this.captured = [];
    try {
      return JSON.parse(this.kind === 'string' && this.state === State.Key ? `"${raw}"` : raw);
    } catch {
      throw new JsonSyntaxError('a member is not valid JSON');
    }
  }
}
