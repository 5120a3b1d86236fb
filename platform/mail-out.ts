// Outgoing e-mail (admin sign-in links) through the SMTP server FOLIO_SMTP_SEND_URL names, with nodemailer.
import nodemailer from 'nodemailer';
import { config } from './config.js';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
}

/** Whether outgoing mail is configured at all. */
export const canSendMail = () => Boolean(config().mailOut.url);

export async function sendMail(mail: OutgoingMail): Promise<void> {
  const { url, from } = config().mailOut;
  if (!url) throw new Error('FOLIO_SMTP_SEND_URL is not set');
  const transport = nodemailer.createTransport(url);
  try {
    await transport.sendMail({ from, ...mail });
  } finally {
    transport.close();
  }
}
