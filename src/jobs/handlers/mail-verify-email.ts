import type { MailMessage } from '../../providers/mail/mail.provider.js';
import { liveTokenOfJob, markMailed, verificationLink, VERIFICATION_MAIL_RETRY_LIMIT } from '../../services/email-verification.service.js';
import { defineJob } from '../registry.js';

/**
 * Sends a verification mail. A delivery failure throws, and pg-boss retries with back-off (the
 * retry policy is set on each job when it is enqueued, see startEmailVerification). A job whose
 * token has been used, superseded or has expired meanwhile completes without sending: the link
 * would not work. pg-boss delivers at least once: a job whose worker died is retried once it
 * expires (mailJobExpireSeconds). The token records when its mail went, so a re-run does not send
 * it again; only a crash between the mail server's acceptance and that record (milliseconds) can.
 */
export const verifyEmailJob = defineJob({
  name: 'mail.verify-email',
  retryLimit: VERIFICATION_MAIL_RETRY_LIMIT,
  retryBackoff: true,
  // A burst of sign-ups or a restart after an outage leaves a backlog: 10 a second, not 1.
  batchSize: 10,
  async handle(payload, deps) {
    const token = await liveTokenOfJob(deps, payload);
    if (token === undefined) {
      deps.logger.info({ userId: payload.userId }, 'verification mail skipped: token no longer usable or already mailed');
      return;
    }
    let messageId: string;
    try {
      ({ messageId } = await deps.mail.send(verificationMail(payload.email, verificationLink(deps.config, token))));
    } catch (err) {
      deps.logger.warn({ err, userId: payload.userId, transport: deps.mail.kind }, 'verification mail not sent; pg-boss retries it');
      throw err;
    }
    await markMailed(deps, token);
    deps.logger.info({ userId: payload.userId, messageId, transport: deps.mail.kind }, 'verification mail sent');
  },
});

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function verificationMail(to: string, link: string): MailMessage {
  const text = [
    'Please confirm your e-mail address for ENS Market by opening this link:',
    '',
    link,
    '',
    'The link works once, within 24 hours. If you did not ask for this, ignore this mail.',
  ].join('\n');
  const href = escapeHtml(link);
  const html = `<p>Please confirm your e-mail address for ENS Market.</p>
<p><a href="${href}">Verify my e-mail address</a></p>
<p>Or open this link: ${href}</p>
<p>The link works once, within 24 hours. If you did not ask for this, ignore this mail.</p>`;
  return { to, subject: 'Verify your e-mail address', text, html, link };
}
