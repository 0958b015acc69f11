import type { Logger } from 'pino';
import type { Config } from '../../config.js';
import { FileMailProvider } from './file.provider.js';
import { SmtpMailProvider } from './smtp.provider.js';

/** One outgoing e-mail. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The link the mail asks the reader to open (carries a secret: never logged). */
  link?: string;
}

export interface MailProvider {
  /** `smtp` when SMTP_URL is set; `file` (the embedded default) otherwise. */
  readonly kind: 'smtp' | 'file';
  /** Resolves when the message is accepted; rejects on any delivery failure (the job retries). */
  send(message: MailMessage): Promise<{ messageId: string }>;
}

/** SMTP over SMTP_URL; without it, each mail becomes an `.eml` file under DATA_DIR/mail. */
export function createMailProvider(config: Config, logger: Logger): MailProvider {
  if (config.smtpUrl) return new SmtpMailProvider(config.smtpUrl, config.mailFrom, config.smtpTimeoutMs);
  return new FileMailProvider(config.dataDir, config.mailFrom, logger);
}
