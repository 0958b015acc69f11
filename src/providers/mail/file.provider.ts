import { randomBytes } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Logger } from 'pino';
import type { MailMessage, MailProvider } from './types.js';

/**
 * The embedded default when no SMTP server is configured: nodemailer builds the RFC 822 message
 * and it is written to `<dataDir>/mail/<time>-<random>.eml` (open it in any mail client). The log
 * names the file, never the link: the link carries a token that signs its reader in as the recipient.
 */
export class FileMailProvider implements MailProvider {
  readonly kind = 'file' as const;
  readonly dir: string;
  private readonly transport: Transporter;

  constructor(dataDir: string, private readonly from: string, private readonly logger: Logger) {
    this.dir = path.join(dataDir, 'mail');
    this.transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
  }

  async send(message: MailMessage): Promise<{ messageId: string }> {
    const info = await this.transport.sendMail({ from: this.from, to: message.to, subject: message.subject, text: message.text, html: message.html });
    const raw = info.message as unknown as Buffer;
    await mkdir(this.dir, { recursive: true });
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const file = path.join(this.dir, `${stamp}-${randomBytes(4).toString('hex')}.eml`);
    // Written aside then renamed, so a reader of the folder never sees half a message.
    await writeFile(`${file}.part`, raw, { mode: 0o600 });
    await rename(`${file}.part`, file);
    this.logger.info({ to: message.to, subject: message.subject, file }, 'mail written to file (no SMTP_URL)');
    return { messageId: String(info.messageId) };
  }
}
