import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { sql } from 'kysely';
import type { LightMyRequestResponse } from 'fastify';
import type { App } from '../../src/app.js';
import type { Db, Executor } from '../../src/db/client.js';
import { rebuildTrends } from '../../src/trends/index.js';
import { refreshListingSummary } from '../../src/orders/index.js';
import type { NotificationType } from '../../src/services/notifier.js';
import { newSecret, sha256 } from '../../src/services/tokens.js';
import { DAY } from '../../src/lib/time.js';
import type { SignedIn } from './accounts.js';

/** Casts a vote through the API (the rules under test); returns the response. */
export function castVote(app: App, who: SignedIn, ensName: string, vote: number): Promise<LightMyRequestResponse> {
  return app.inject({ method: 'POST', url: '/api/v1/votes', headers: who.headers, payload: { ensName, vote } });
}

/**
 * Moves the time of a user's latest cast on a name (its event, and the vote row when there is
 * one), then recomputes the trend counters from the casts, as a bulk loader would.
 */
export async function setVoteTime(db: Db, userId: number, ensNameId: number, at: Date): Promise<void> {
  await sql`
    UPDATE vote_events SET cast_at = ${at}
    WHERE id = (SELECT max(id) FROM vote_events WHERE user_id = ${userId} AND ens_name_id = ${ensNameId})`.execute(db);
  await db.updateTable('votes').set({ updated_at: at }).where('user_id', '=', userId).where('ens_name_id', '=', ensNameId).execute();
  await rebuildTrends(db);
}

export interface NotificationOptions {
  type?: NotificationType;
  ensNameId?: number | null;
  title?: string;
  message?: string;
  metadata?: Record<string, unknown>;
  createdAt?: Date;
  readAt?: Date | null;
}

/** Inserts a notification for an address (as the notifier would), returning its row. */
export async function createNotification(db: Executor, recipient: string, options: NotificationOptions = {}) {
  return db
    .insertInto('notifications')
    .values({
      recipient_address: recipient.toLowerCase(),
      type: options.type ?? 'offer_received',
      ens_name_id: options.ensNameId ?? null,
      title: options.title ?? 'New offer',
      message: options.message ?? 'You received an offer',
      metadata: JSON.stringify(options.metadata ?? {}),
      created_at: options.createdAt ?? new Date(),
      read_at: options.readAt ?? null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Inserts an active listing row for a name (enough for leaderboard and search summaries). */
export async function createActiveListing(db: Executor, ensNameId: number, seller: string, options: { priceWei?: string; expiresAt?: Date | null; status?: 'active' | 'sold' | 'cancelled' | 'expired' | 'unfunded'; createdAt?: Date; currency?: string } = {}) {
  const listing = await db
    .insertInto('listings')
    .values({
      ens_name_id: ensNameId,
      seller_address: seller.toLowerCase(),
      price_wei: options.priceWei ?? '1000000000000000000',
      currency_address: options.currency ?? '0x0000000000000000000000000000000000000000',
      order_hash: `0x${randomBytes(32).toString('hex')}`,
      order_data: JSON.stringify({}),
      status: options.status ?? 'active',
      expires_at: options.expiresAt === undefined ? new Date(Date.now() + 30 * DAY) : options.expiresAt,
      created_at: options.createdAt ?? new Date(),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  // the name's listing summary, as every listing move keeps it
  await refreshListingSummary(db, ensNameId);
  return listing;
}

/** Stores a verification token for a user's address as the service would; returns the raw token. */
export async function createVerificationToken(db: Executor, userId: number, email: string, options: { expiresAt?: Date; usedAt?: Date | null } = {}): Promise<string> {
  const token = newSecret();
  await db
    .insertInto('email_verification_tokens')
    .values({ user_id: userId, email, token_hash: sha256(token), expires_at: options.expiresAt ?? new Date(Date.now() + DAY), used_at: options.usedAt ?? null })
    .execute();
  return token;
}

/** Polls `check` until it returns something other than undefined/false, or fails after `timeoutMs`. */
export async function waitFor<T>(what: string, check: () => Promise<T | undefined | false> | T | undefined | false, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

export interface ReceivedMail {
  from: string | undefined;
  to: string[];
  raw: string;
}

export interface TestSmtpServer {
  port: number;
  url: string;
  received: ReceivedMail[];
  close(): Promise<void>;
}

/** A real SMTP server on 127.0.0.1 (no TLS, no auth) that keeps every message it receives. */
export async function startSmtpServer(port = 0): Promise<TestSmtpServer> {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : undefined,
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const actual = (server.server.address() as { port: number }).port;
  return {
    port: actual,
    url: `smtp://127.0.0.1:${actual}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Decodes quoted-printable soft breaks and escapes, enough to read a link out of a raw message. */
export function decodeQuotedPrintable(raw: string): string {
  return raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** The verification link and its token in a raw RFC 822 message. */
export function verificationLinkIn(raw: string): { link: string; token: string } {
  const match = /(https?:\/\/[^\s"<>]+\/verify-email\?token=([A-Za-z0-9_%-]+))/.exec(decodeQuotedPrintable(raw));
  if (!match) throw new Error(`no verification link in mail:\n${raw}`);
  return { link: match[1], token: decodeURIComponent(match[2]) };
}
