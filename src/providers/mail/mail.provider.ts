import type { Logger } from 'pino';
import type { Config } from '../../config.js';
import { FileMailProvider } from './file.provider.js';
import { SmtpMailProvider } from './smtp.provider.js';
import type { MailProvider } from './types.js';

export type { MailMessage, MailProvider } from './types.js';

/** SMTP over SMTP_URL; without it, each mail becomes an `.eml` file under DATA_DIR/mail. */
export function createMailProvider(config: Config, logger: Logger): MailProvider {
  if (config.smtpUrl) return new SmtpMailProvider(config.smtpUrl, config.mailFrom, config.smtpTimeoutMs);
  return new FileMailProvider(config.dataDir, config.mailFrom, logger);
}
