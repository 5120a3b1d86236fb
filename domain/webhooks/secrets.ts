// Signing secrets: 32 random bytes shown as whsec_<base64url>, stored wrapped by the master key with the Drive key
// scheme (domain/drive/crypto.ts), the destination uuid bound in as associated data. After a rotation the previous
// secret signs too until it expires, so a receiver can switch over without dropping a delivery.
import { randomBytes } from 'node:crypto';
import { DATA_KEY_BYTES, unwrapDataKey, wrapDataKey } from '../drive/crypto.js';

const SECRET_PREFIX = 'whsec_';

export interface SecretRow {
  uuid: string;
  secret_wrapped: Buffer;
  previous_secret_wrapped: Buffer | null;
  previous_secret_expires_at: Date | null;
}

export function newSecret(): Buffer {
  return randomBytes(DATA_KEY_BYTES);
}

/** The text the admin app reveals; its UTF-8 bytes are the HMAC key (domain/webhooks/signature.ts). */
export const secretText = (bytes: Buffer) => SECRET_PREFIX + bytes.toString('base64url');

export const wrapSecret = (masterKey: Buffer, destinationUuid: string, bytes: Buffer) =>
  wrapDataKey(masterKey, destinationUuid, bytes);

export const unwrapSecret = (masterKey: Buffer, destinationUuid: string, wrapped: Buffer) =>
  secretText(unwrapDataKey(masterKey, destinationUuid, wrapped));

/** The secrets that sign a delivery now: the current one, then the previous one while its overlap lasts. */
export function signingSecrets(masterKey: Buffer, row: SecretRow, now: Date): string[] {
  const secrets = [unwrapSecret(masterKey, row.uuid, row.secret_wrapped)];
  if (row.previous_secret_wrapped && row.previous_secret_expires_at && row.previous_secret_expires_at > now) {
    secrets.push(unwrapSecret(masterKey, row.uuid, row.previous_secret_wrapped));
  }
  return secrets;
}
