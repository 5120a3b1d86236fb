// Inbound SMTP on FOLIO_SMTP_PORT (started by the API process): mail for a known mailbox address is stored as
// delivered, exactly as `folio email deliver` stores it; an unknown recipient gets 550, a message above
// FOLIO_SMTP_MAX_BYTES 552 (the rest of it read and dropped, never held). TLS and authentication are left to the MX
// in front (docs/webhooks.md § Mail in). The process that starts it hands in what it stores with (api/server.ts: the
// app's own pool, object store and transactions), so the ingress holds no connection of its own.
import type { Readable } from 'node:stream';
import {
  SMTPServer,
  type SMTPServerAddress,
  type SMTPServerDataStream,
  type SMTPServerSession,
} from 'smtp-server';
import { findMailboxByAddress } from '../domain/email/mailboxes.js';
import { storeEmail, type EmailStoreDeps } from '../domain/email/messages.js';
import type { Config } from '../platform/config.js';
import { logger } from '../platform/logger.js';

const smtpError = (responseCode: number, message: string) =>
  Object.assign(new Error(message), { responseCode });

/**
 * The message, or undefined once it passed `maxBytes`: from then on what was held is let go and the rest of the stream
 * is read and dropped piece by piece, so a connection never holds more than the limit, however much a sender streams.
 * SMTP lets the server answer only after the final dot, so the 552 waits for it.
 */
export async function readMessage(
  stream: Readable & { sizeExceeded?: boolean },
  maxBytes: number,
): Promise<Buffer | undefined> {
  let pieces: Buffer[] | undefined = [];
  let bytes = 0;
  for await (const piece of stream as AsyncIterable<Buffer>) {
    if (!pieces) continue;
    bytes += piece.length;
    if (bytes > maxBytes || stream.sizeExceeded) pieces = undefined;
    else pieces.push(piece);
  }
  return pieces && Buffer.concat(pieces, bytes);
}

export interface SmtpIngressDeps {
  /** FOLIO_SMTP_PORT (0: no ingress) and FOLIO_SMTP_MAX_BYTES, the address it listens on, the name it greets with. */
  settings: Pick<Config, 'smtp' | 'host' | 'publicUrl'>;
  /** Where an accepted message is stored (domain/email/messages.ts). */
  email: EmailStoreDeps;
}

/** Listens until closed; answers the server, or undefined when FOLIO_SMTP_PORT is 0. */
export async function startSmtpIngress({
  settings,
  email: deps,
}: SmtpIngressDeps): Promise<SMTPServer | undefined> {
  if (!settings.smtp.port) return undefined;
  const log = logger.child({ category: 'smtp' });

  const server = new SMTPServer({
    name: new URL(settings.publicUrl).hostname,
    banner: 'Folio inbound mail',
    size: settings.smtp.maxBytes,
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    onRcptTo(
      address: SMTPServerAddress,
      _session: SMTPServerSession,
      callback: (error?: Error | null) => void,
    ) {
      findMailboxByAddress(deps.db, address.address)
        .then((mailbox) =>
          callback(
            mailbox ? null : smtpError(550, `5.1.1 No mailbox here by the address ${address.address}`),
          ),
        )
        .catch((error: unknown) => {
          log.error({ err: error }, 'recipient lookup failed');
          callback(smtpError(451, '4.3.0 Temporary failure, try again later'));
        });
    },
    onData(
      stream: SMTPServerDataStream,
      session: SMTPServerSession,
      callback: (error?: Error | null) => void,
    ) {
      (async () => {
        const raw = await readMessage(stream, settings.smtp.maxBytes);
        if (!raw) throw smtpError(552, `5.3.4 Message larger than ${settings.smtp.maxBytes} bytes`);
        for (const recipient of session.envelope.rcptTo) {
          const mailbox = await findMailboxByAddress(deps.db, recipient.address);
          if (!mailbox) continue;
          const result = await storeEmail(deps, { mailboxUuid: mailbox.uuid, raw, kind: 'delivered' });
          log.info(
            {
              mailbox_uuid: mailbox.uuid,
              email_uuid: result.uuid,
              outcome: result.outcome,
              event_id: result.outcome === 'stored' ? result.event_id : null,
            },
            'message received',
          );
        }
      })().then(
        () => callback(),
        (error: unknown) => {
          if ((error as { responseCode?: number }).responseCode) return callback(error as Error);
          // mailparser's bounds (1,000 MIME parts, 1 MB of headers a part): retrying cannot help, so refuse for good.
          if ((error as { code?: string }).code === 'EMAXLEN')
            return callback(smtpError(554, '5.6.0 Message structure too complex'));
          log.error({ err: error }, 'storing an inbound message failed');
          callback(smtpError(451, '4.3.0 Temporary failure, try again later'));
        },
      );
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(settings.smtp.port, settings.host, () => resolve());
  });
  server.on('error', (error) => log.error({ err: error }, 'smtp server error'));
  log.info({ address: `${settings.host}:${settings.smtp.port}` }, 'smtp listening');
  return server;
}
