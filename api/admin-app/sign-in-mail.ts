// E-mailed sign-in links, made and sent after the sign-in form has answered: the answer does the same work for every
// address, so its timing tells nobody who the admins are (docs/admin-app.md § Signing in; issue 22 row 5).
import { createSignInLink, signInUrl } from '../../domain/admin/sessions.js';
import { AppError } from '../../domain/errors.js';
import { BackgroundJobs } from '../../platform/background-jobs.js';
import { logger } from '../../platform/logger.js';
import type { AdminAppSettings } from './session.js';

/** Sends at once; more wait; past that a request is dropped (the form answers the same, the admin asks again). */
export const SIGN_IN_MAIL_CONCURRENCY = 2;
export const SIGN_IN_MAIL_MAX_WAITING = 20;

const log = logger.child({ category: 'admin-sign-in' });

/** A failure as the log may see it: a link's secret never, even if a server echoed it back in its reply. */
function safeError(error: unknown): Record<string, unknown> {
  const fields = (error ?? {}) as {
    name?: unknown;
    code?: unknown;
    responseCode?: unknown;
    command?: unknown;
    message?: unknown;
  };
  const message =
    typeof fields.message === 'string'
      ? fields.message.replace(/folio_sl_[A-Za-z0-9_-]*/g, 'folio_sl_[redacted]').slice(0, 500)
      : undefined;
  return {
    name: fields.name,
    code: fields.code,
    smtp_status: fields.responseCode,
    smtp_command: fields.command,
    message,
  };
}

export interface SignInMailer {
  /** Queues the lookup and, for an admin, the link and its e-mail; returns at once, and never throws. */
  request(address: string): void;
  /** Resolves once nothing is queued or sending. */
  idle(): Promise<void>;
}

export function signInMailer(
  settings: Pick<AdminAppSettings, 'url' | 'db'> & { sendMail: NonNullable<AdminAppSettings['sendMail']> },
): SignInMailer {
  const adminUrl = settings.url.toString();
  const jobs = new BackgroundJobs({
    concurrency: SIGN_IN_MAIL_CONCURRENCY,
    maxWaiting: SIGN_IN_MAIL_MAX_WAITING,
    onError: (error) => log.error({ err: safeError(error) }, 'could not send an admin sign-in link'),
    onDrop: () =>
      log.warn(
        { waiting: SIGN_IN_MAIL_MAX_WAITING },
        'admin sign-in e-mail dropped: too many already waiting to be sent',
      ),
  });

  async function send(address: string): Promise<void> {
    const link = await createSignInLink(settings.db, { user: address }, new Date(), { maxRecent: 3 }).catch(
      (error: unknown) => {
        // Not an admin, several workspaces, or 3 links in 15 minutes: nothing is sent, and the form already answered.
        if (error instanceof AppError) return undefined;
        throw error;
      },
    );
    if (!link) return;
    await settings.sendMail({
      to: link.email,
      subject: 'Your Folio admin sign-in link',
      text: `Open this link to sign in to Folio admin. It works once, for 15 minutes.\n\n${signInUrl(adminUrl, link.token)}\n\nIf you did not ask for it, ignore this e-mail.\n`,
    });
    log.info({ user_uuid: link.userUuid, workspace_uuid: link.workspaceUuid }, 'admin sign-in link e-mailed');
  }

  return {
    request: (address) => {
      jobs.add(() => send(address));
    },
    idle: () => jobs.idle(),
  };
}
