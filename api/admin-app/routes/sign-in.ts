// Signing in and out of the admin app: the sign-in page, the confirmation a one-time link opens, and sign-out.
import Router from '@koa/router';
import { endSession, peekSignInLink, redeemSignInLink } from '../../../domain/admin/sessions.js';
import { clearSessionCookie, pageContext, setSessionCookie, type AdminAppSettings } from '../session.js';
import { signInMailer } from '../sign-in-mail.js';
import { confirmSignInPage, linkUnusablePage, signInPage } from '../views/sign-in.js';

const LINK_TOKEN = /^folio_sl_[A-Za-z0-9_-]{43}$/;

export function signInRouter(settings: AdminAppSettings): Router {
  const router = new Router({ sensitive: true });
  const base = pageContext;
  const { db, sendMail } = settings;
  const mailer = sendMail && signInMailer({ ...settings, sendMail });

  router.get('/sign-in', (ctx) => {
    ctx.body = signInPage(base(ctx, settings), {
      emailEnabled: mailer !== undefined,
      sent: ctx.query.sent === '1',
      signedOut: ctx.query.signed_out === '1',
    }).text;
  });

  // Whatever the address, the answer is the same and comes as fast: it only queues the address. Whether it belongs to
  // an admin is looked up, and the link made and e-mailed, after the answer (sign-in-mail.ts).
  router.post('/sign-in', (ctx) => {
    const email = (ctx.request.body as Record<string, unknown> | undefined)?.email;
    if (mailer && typeof email === 'string' && email.length <= 320 && email.includes('@'))
      mailer.request(email.trim());
    ctx.status = 303;
    ctx.redirect(`${base(ctx, settings).base}/sign-in?sent=1`);
  });

  // Opening a link only asks to continue: mail scanners and link previews fetch GETs, and must not use it up.
  router.get('/sign-in/:token', async (ctx) => {
    const link = LINK_TOKEN.test(ctx.params.token!) ? await peekSignInLink(db, ctx.params.token!) : undefined;
    if (!link) {
      ctx.status = 410;
      ctx.body = linkUnusablePage(base(ctx, settings)).text;
      return;
    }
    ctx.set('Cache-Control', 'no-store');
    ctx.body = confirmSignInPage(base(ctx, settings), { token: ctx.params.token!, ...link }).text;
  });

  router.post('/sign-in/:token', async (ctx) => {
    const client = { userAgent: ctx.get('User-Agent') || undefined, ip: ctx.ip || undefined };
    const redeemed = LINK_TOKEN.test(ctx.params.token!)
      ? await redeemSignInLink(db, ctx.params.token!, settings.limits, client)
      : undefined;
    if (!redeemed) {
      ctx.status = 410;
      ctx.body = linkUnusablePage(base(ctx, settings)).text;
      return;
    }
    setSessionCookie(ctx, settings, redeemed.sessionToken);
    ctx.status = 303;
    ctx.redirect(`${base(ctx, settings).base}/webhooks`);
  });

  router.post('/sign-out', async (ctx) => {
    const session = ctx.state.adminSession;
    if (session) await endSession(db, session.uuid, 'signed_out');
    clearSessionCookie(ctx, settings);
    ctx.status = 303;
    ctx.redirect(`${base(ctx, settings).base}/sign-in?signed_out=1`);
  });

  return router;
}
