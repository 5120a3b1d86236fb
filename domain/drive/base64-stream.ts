// The simple upload's `data`: standard base64 (RFC 4648 §4), padded or not, ASCII whitespace ignored
// (docs/drive-encryption.md § 5). Decoded whole from a string (the buffered path) or as its bytes arrive (the streamed
// path), with one set of rules: the alphabet A–Z a–z 0–9 + / only (no URL-safe "-" or "_"), at most two "=" and only
// at the end (then the length is a multiple of 4), never 4k + 1 characters.

/** The bytes of `text` when it is standard base64, padded or not; undefined when it is not. */
function decodeUnspaced(text: string): Buffer | undefined {
  const unpadded = text.endsWith('==') ? text.slice(0, -2) : text.endsWith('=') ? text.slice(0, -1) : text;
  if (unpadded.length % 4 === 1 || (unpadded.length !== text.length && text.length % 4 !== 0))
    return undefined;
  if (unpadded.includes('-') || unpadded.includes('_')) return undefined;
  // Node's decoder skips characters outside the alphabet and stops at a misplaced "=": each shortens the output.
  const decoded = Buffer.from(unpadded, 'base64');
  return decoded.length === Math.floor((unpadded.length * 3) / 4) ? decoded : undefined;
}

/** The buffered path's decoding of a whole `data` string; ASCII whitespace (76-column line breaks) is ignored. */
export function decodeStandardBase64(text: string): Buffer | undefined {
  return (
    decodeUnspaced(text) ??
    (/[\t\n\r ]/.test(text) ? decodeUnspaced(text.replace(/[\t\n\r ]+/g, '')) : undefined)
  );
}

const ALPHABET = new Uint8Array(256);
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/')
  ALPHABET[c.charCodeAt(0)] = 1;
const WHITESPACE = new Uint8Array(256);
for (const c of '\t\n\r ') WHITESPACE[c.charCodeAt(0)] = 1;
const EQUALS = 0x3d;
const DASH = 0x2d;
const UNDERSCORE = 0x5f;
/** Base64 characters decoded at once: the fast path's check is per slice, the window holds one slice's bytes. */
const SLICE_CHARS = 256 * 1024;

/** Thrown for a raw control character inside a JSON string: the body is not JSON. */
export class RawControlCharacter extends Error {}

/**
 * Standard base64 decoded as it arrives, into whole chunks of `chunkBytes` handed to `onChunk` (synchronously: the
 * buffer is reused once it returns), the rest returned by `end()`. Clean text (the alphabet only) is decoded by Node
 * straight into the chunk window, and checked by its decoded length (Node skips what it cannot read, so a shorter
 * answer means a character outside the alphabet) and a search for "-" and "_" (which Node reads as URL-safe). A slice
 * that fails that check (whitespace, padding, anything else) is read byte by byte, once.
 */
export class Base64StreamDecoder {
  private readonly window: Buffer;
  private filled = 0;
  /** A quartet begun at the end of the last slice: up to 3 characters. */
  private readonly carry = Buffer.alloc(4);
  private carried = 0;
  /** "=" read so far; after the first, only whitespace and a second "=" may follow. */
  private padding = 0;
  private characters = 0;
  private failed = false;
  private decodedBytes = 0;
  private scratch: Buffer | undefined;

  /**
   * `jsonText`: the characters come from a JSON string (escapes resolved, escaped whitespace left out), where a raw
   * control character is not JSON; otherwise they are plain text, where tab, CR and LF are whitespace.
   */
  constructor(
    private readonly chunkBytes: number,
    private readonly onChunk: (plaintext: Buffer) => void,
    private readonly jsonText = true,
  ) {
    this.window = Buffer.allocUnsafe(chunkBytes + SLICE_CHARS);
  }

  /** Whether the text read so far already breaks the rules (nothing more is decoded then). */
  get invalid(): boolean {
    return this.failed;
  }

  /** Base64 characters read so far (whitespace and padding aside). */
  get alphabetCharacters(): number {
    return this.characters + this.carried;
  }

  /** Plaintext bytes the window takes before the next whole chunk is handed on. */
  get room(): number {
    return this.chunkBytes - this.filled;
  }

  /** Plaintext bytes decoded so far. */
  get bytes(): number {
    return this.decodedBytes;
  }

  /**
   * The next characters, as they stood in the JSON text (escapes resolved by the reader): a raw control character
   * other than the space is not JSON (RawControlCharacter).
   */
  write(piece: Buffer): void {
    for (let start = 0; start < piece.length && !this.failed; start += SLICE_CHARS)
      this.writeSlice(piece.subarray(start, Math.min(start + SLICE_CHARS, piece.length)));
  }

  /** The plaintext after the last whole chunk, or undefined when the whole text is not valid base64. */
  end(): Buffer | undefined {
    if (this.failed) return undefined;
    const total = this.characters + this.carried;
    if (total % 4 === 1 || (this.padding > 0 && (total + this.padding) % 4 !== 0)) {
      this.failed = true;
      return undefined;
    }
    if (this.carried > 0) this.decodeClean(this.carry.subarray(0, this.carried));
    this.carried = 0;
    return this.window.subarray(0, this.filled);
  }

  private writeSlice(slice: Buffer): void {
    let at = 0;
    if (this.padding > 0) return this.writeSlowly(slice);
    if (this.carried > 0) {
      // The quartet begun in the last slice is completed first, byte by byte.
      at = Math.min(slice.length, 4 - this.carried);
      this.writeSlowly(slice.subarray(0, at));
      if (this.failed || this.padding > 0 || this.carried > 0) return this.writeSlowly(slice.subarray(at));
    }
    const rest = slice.subarray(at);
    const whole = rest.length - (rest.length % 4);
    if (whole > 0) {
      const written = this.window.write(rest.toString('latin1', 0, whole), this.filled, 'base64');
      const clean = rest.subarray(0, whole);
      if (written !== (whole / 4) * 3 || clean.indexOf(DASH) >= 0 || clean.indexOf(UNDERSCORE) >= 0)
        return this.writeSlowly(rest);
      this.characters += whole;
      this.took(written);
    }
    if (whole < rest.length) this.writeSlowly(rest.subarray(whole));
  }

  /** Byte by byte: whitespace dropped, padding noted, anything else refused; the clean characters decoded. */
  private writeSlowly(slice: Buffer): void {
    this.scratch ??= Buffer.allocUnsafe(SLICE_CHARS + 4);
    const clean = this.scratch;
    clean.set(this.carry.subarray(0, this.carried));
    let length = this.carried;
    for (let at = 0; at < slice.length; at++) {
      const byte = slice[at]!;
      if (WHITESPACE[byte]) {
        if (this.jsonText && byte !== 0x20) throw new RawControlCharacter();
        continue;
      }
      if (this.jsonText && byte < 0x20) throw new RawControlCharacter();
      if (byte === EQUALS && this.padding < 2) this.padding++;
      else if (!ALPHABET[byte] || this.padding > 0) return this.fail();
      else clean[length++] = byte;
    }
    const whole = length - (length % 4);
    if (whole > 0) {
      this.characters += whole;
      this.decodeClean(clean.subarray(0, whole));
    }
    this.carried = length - whole;
    clean.copy(this.carry, 0, whole, length);
  }

  private decodeClean(clean: Buffer): void {
    this.took(this.window.write(clean.toString('latin1'), this.filled, 'base64'));
  }

  private took(bytes: number): void {
    this.filled += bytes;
    this.decodedBytes += bytes;
    if (this.filled < this.chunkBytes) return;
    let start = 0;
    for (; this.filled - start >= this.chunkBytes; start += this.chunkBytes)
      this.onChunk(this.window.subarray(start, start + this.chunkBytes));
    this.window.copy(this.window, 0, start, this.filled);
    this.filled -= start;
  }

  private fail(): void {
    this.failed = true;
    this.carried = 0;
  }
}
