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
