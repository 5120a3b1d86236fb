// Standard base64 (RFC 4648 §4) decoded as it arrives, for the simple upload's `data` string (docs/drive-encryption.md
// § Simple upload). The rules are those of a whole string: the standard alphabet only (no "-" or "_"), padding
// optional but, when present, one or two "=" that end the text and make its length a multiple of 4, never a lone
// trailing character, and ASCII whitespace (space, tab, CR, LF) ignored wherever it sits. Trailing bits that a
// canonical encoder would leave zero are ignored, as Node's decoder ignores them.

const ALPHABET_ONLY = /^[A-Za-z0-9+/]*$/;
const WHITESPACE = /[\t\n\r ]+/g;
const WITH_PADDING = /^([A-Za-z0-9+/]*)(=*)$/;

export class Base64Decoder {
  /** Up to 3 alphabet characters that do not yet make a whole quartet. */
  private carry = '';
  private characters = 0;
  private padding = 0;
  private failed = false;
  private decoded = 0;

  /** Whether the text so far already breaks the rules; nothing more is decoded then. */
  get invalid(): boolean {
    return this.failed;
  }

  /** Bytes decoded so far (and answered by write). */
  get bytes(): number {
    return this.decoded;
  }

  /**
   * The bytes of the whole quartets `text` completes; the rest waits for the next piece. An empty answer once the text
   * is known to be invalid.
   */
  write(text: string): Buffer {
    if (this.failed || text.length === 0) return EMPTY;
    let alphabet = text;
    if (this.padding > 0 || !ALPHABET_ONLY.test(text)) {
      const match = WITH_PADDING.exec(text.replace(WHITESPACE, ''));
      // Anything after padding, or outside the alphabet, or a third "=".
      if (!match || (this.padding > 0 && match[1]!.length > 0) || this.padding + match[2]!.length > 2) {
        this.fail();
        return EMPTY;
      }
      this.padding += match[2]!.length;
      alphabet = match[1]!;
    }
    this.characters += alphabet.length;
    const pending = this.carry + alphabet;
    const whole = pending.length - (pending.length % 4);
    this.carry = pending.slice(whole);
    return this.take(whole === 0 ? EMPTY : Buffer.from(pending.slice(0, whole), 'base64'));
  }

  /** The last bytes, or undefined when the whole text is not valid base64. */
  end(): Buffer | undefined {
    if (this.failed) return undefined;
    if (this.characters % 4 === 1 || (this.padding > 0 && (this.characters + this.padding) % 4 !== 0)) {
      this.fail();
      return undefined;
    }
    const last = this.carry ? Buffer.from(this.carry, 'base64') : EMPTY;
    this.carry = '';
    return this.take(last);
  }

  private take(bytes: Buffer): Buffer {
    this.decoded += bytes.length;
    return bytes;
  }

  private fail(): void {
    this.failed = true;
    this.carry = '';
  }
}

const EMPTY = Buffer.alloc(0);
