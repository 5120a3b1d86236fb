// Error codes of mail in (docs/webhooks.md § Mail in), as factories of the one AppError.
import { AppError } from '../errors.js';

export const invalidAddress = (address: string) =>
  new AppError(422, 'invalid_address', `"${address}" is not an email address.`);
export const addressTaken = (address: string) =>
  new AppError(409, 'address_taken', `A mailbox already has the address ${address}.`);
export const notWorkspaceMember = (userUuid: string) =>
  new AppError(422, 'not_a_workspace_member', `User ${userUuid} is not a member of the mailbox's workspace.`);
export const invalidRule = (description: string) => new AppError(422, 'invalid_rule', description);
export const messageTooLarge = (maxBytes: number) =>
  new AppError(413, 'message_too_large', `The message is larger than ${maxBytes} bytes.`, {
    max_bytes: maxBytes,
  });
