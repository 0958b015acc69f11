import nodemailer, { type Transporter } from 'nodemailer';
import { parseConnectionUrl } from 'nodemailer/lib/shared/index.js';
import type { MailMessage, MailProvider } from './types.js';

/**
 * nodemailer over SMTP_URL (`smtp://user:pass@host:587`, `smtps://…:465`; query parameters are
 * nodemailer options, e.g. `?tls.rejectUnauthorized=false`). One connection per mail: mail is
 * rare here, and a pool would hold a socket open for nothing. Retries belong to the job queue.
 */
export class SmtpMailProvider implements MailProvider {
  readonly kind = 'smtp' as const;
  private readonly transport: Transporter;

  constructor(url: string, private readonly from: string, timeoutMs: number) {
    this.transport = nodemailer.createTransport({
      connectionTimeout: timeoutMs,
      greetingTimeout: timeoutMs,
      socketTimeout: timeoutMs,
      ...parseConnectionUrl(url),
    });
  }

  async send(message: MailMessage): Promise<{ messageId: string }> {
    const info = await this.transport.sendMail({ from: this.from, to: message.to, subject: message.subject, text: message.text, html: message.html });
    return { messageId: String(info.messageId) };
  }
}
