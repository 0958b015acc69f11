import type { Deps } from '../deps.js';
import type { MailMessage } from '../providers/mail/mail.provider.js';
import type { AlertLine } from './messages.js';

export interface ExpiryMailPayload {
  ensNameId: number;
  line: AlertLine;
  expiryDate: string;
  recipient: string;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * Mails one alert to its recipient's address, if it is still verified and the user still wants
 * expiry alerts by e-mail (both are read now, not when the alert was written). The notice records
 * when its mail went, so a job pg-boss runs again sends nothing; a delivery failure throws and is
 * retried with back-off.
 */
export async function sendExpiryMail(deps: Pick<Deps, 'db' | 'mail' | 'logger' | 'config'>, p: ExpiryMailPayload): Promise<void> {
  const row = await deps.db.selectFrom('expiry_notices as e')
    .innerJoin('users as u', 'u.address', 'e.recipient_address')
    .innerJoin('notifications as n', (j) => j.onRef('n.ens_name_id', '=', 'e.ens_name_id').onRef('n.recipient_address', '=', 'e.recipient_address').onRef('n.type', '=', 'e.line'))
    .select(['e.mailed_at', 'u.email', 'u.email_verified_at', 'u.notify_on_expiry', 'n.title', 'n.message'])
    .where('e.ens_name_id', '=', p.ensNameId).where('e.line', '=', p.line).where('e.expiry_date', '=', new Date(p.expiryDate)).where('e.recipient_address', '=', p.recipient)
    .orderBy('n.id', 'desc')
    .executeTakeFirst();
  if (!row || row.mailed_at || !row.email || !row.email_verified_at || !row.notify_on_expiry) {
    deps.logger.info({ line: p.line, ensNameId: p.ensNameId }, 'expiry mail skipped: already sent, or no verified address that wants it');
    return;
  }
  const link = `${deps.config.appUrl.replace(/\/+$/, '')}/notifications`;
  const message: MailMessage = {
    to: row.email,
    subject: row.title,
    text: `${row.message}\n\n${link}\n\nYou get these alerts because you own or watch this name. Turn them off in your profile settings.`,
    html: `<p>${escapeHtml(row.message)}</p><p><a href="${escapeHtml(link)}">Open your notifications</a></p><p>You get these alerts because you own or watch this name. Turn them off in your profile settings.</p>`,
  };
  await deps.mail.send(message);
  await deps.db.updateTable('expiry_notices').set({ mailed_at: new Date() })
    .where('ens_name_id', '=', p.ensNameId).where('line', '=', p.line).where('expiry_date', '=', new Date(p.expiryDate)).where('recipient_address', '=', p.recipient)
    .execute();
}
