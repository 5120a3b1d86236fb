// Error codes of webhook management (docs/webhooks.md § Admin API), as factories of the one AppError.
import { AppError } from '../errors.js';

export const adminRequired = () =>
  new AppError(403, 'forbidden', 'Only an administrator of the workspace may manage webhooks.');
export const invalidWebhookUrl = (reason: string) =>
  new AppError(422, 'invalid_url', `The webhook URL is refused: ${reason}.`, { reason });
export const unknownMailboxes = (uuids: string[]) =>
  new AppError(422, 'unknown_mailboxes', 'Some mailboxes are not in this workspace.', { mailboxes: uuids });
export const invalidTransition = (description: string) => new AppError(409, 'invalid_state', description);
