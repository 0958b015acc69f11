import { sql, type RawBuilder } from 'kysely';
import { GENERIC_PLAN, type Executor } from '../db/client.js';
import type { Deps } from '../deps.js';
import { AppError } from '../errors.js';
import { COMMENT_MAX_CHARS } from '../contracts/comments.js';
import { resolveName } from '../history/index.js';
import { pageB, type PageB } from '../lib/pagination.js';
import { cleanText } from '../lib/text.js';
import { iso } from '../lib/time.js';

/** Deepest comment a numbered feed page reaches, and where its count stops. */
export const FEED_WINDOW = 10_000;
/** Clubs or watchlists of at most this many names are read name by name, larger ones by walking the newest comments. */
const SMALL_NAME_SET = 5_000;

export interface CommentView {
  id: string;
  ens_name_id: number;
  name: string;
  user_id: number;
  author_address: string;
  author_persona_id: null;
  body: string;
  created_at: string;
  updated_at: string;
  edited: boolean;
}

export interface FeedCommentView extends CommentView {
  owner_address: string | null;
  clubs: string[];
}

export interface Quota {
  used: number;
  max: number;
  remaining: number;
  resetsAt: string;
  perMinute: number;
}

/** What a page of comments keeps; every field is optional and they combine with AND. */
export interface CommentFilter {
  ensNameId?: number;
  author?: string;
  owner?: string;
  clubs?: string[];
  /** Only names on this user's watchlists. */
  watchedBy?: number;
  /** The reader: comments by users they blocked are left out. */
  viewerId?: number;
  /** Only comments older than this id (the cursor). */
  before?: number;
}

interface Row {
  id: number;
  ens_name_id: number;
  name: string;
  user_id: number;
  author_address: string;
  body: string;
  created_at: Date;
  updated_at: Date;
  owner_address: string | null;
  clubs: string[];
}

function toComment(r: Row): CommentView {
  return {
    id: String(r.id),
    ens_name_id: r.ens_name_id,
    name: r.name,
    user_id: r.user_id,
    author_address: r.author_address,
    author_persona_id: null,
    body: r.body,
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
    edited: r.updated_at.getTime() > r.created_at.getTime(),
  };
}

function toFeedComment(r: Row): FeedCommentView {
  return { ...toComment(r), owner_address: r.owner_address, clubs: r.clubs };
}

/** Club filters as sent: repeated, `clubs[]`, or comma-separated; blanks dropped. */
export function clubList(...sources: (readonly string[] | string | undefined)[]): string[] | undefined {
  const all = sources.flatMap((s) => (s === undefined ? [] : typeof s === 'string' ? [s] : [...s]))
    .flatMap((v) => v.split(',')).map((v) => v.trim()).filter((v) => v !== '');
  return all.length > 0 ? [...new Set(all)] : undefined;
}

/** The stored id of a name sent in a request; 400 INVALID_NAME / 404 ENS_NAME_NOT_FOUND. */
export function nameIdOf(db: Executor, raw: string, field: string): Promise<{ id: number; name: string }> {
  return resolveName(db, raw, 'ENS_NAME_NOT_FOUND', field);
}

/** The comment body once trimmed, or 400 naming the field. */
function checkBody(raw: string, field: string): string {
  const clean = cleanText(raw, COMMENT_MAX_CHARS);
  if (clean.text !== undefined) return clean.text;
  const message = clean.problem === 'control_character'
    ? `${field} must not contain control characters (character ${clean.at ?? 0})`
    : clean.problem === 'empty' ? `${field} must not be blank` : `${field} must be at most ${COMMENT_MAX_CHARS} characters`;
  throw new AppError('VALIDATION_ERROR', message, { field, reason: clean.problem });
}

/**
 * The mark of a page or count of comments that is planned once (GENERIC_PLAN): a name's, an
 * author's, a cursor's, everyone's comments are each one index range whatever the values. Not an
 * owner's, whose names are a few or tens of thousands.
 */
const planOnce = (f: CommentFilter) => (f.owner === undefined ? GENERIC_PLAN : sql``);

const startOfUtcDay = (at: Date) => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));

/**
 * Comments on names: plain text, newest first, each author editing and deleting only their own.
 * Reads page by keyset (`id < cursor`) over one index per kind of page; a reader's block list is
 * applied per row through its primary key.
 */
export class CommentService {
  constructor(private readonly deps: Pick<Deps, 'db' | 'config'>) {}

  /** The filter's conditions on `c` (comments), except clubs, which need the name row (see planOnce). */
  private conditions(f: CommentFilter): RawBuilder<unknown> {
    const parts: RawBuilder<unknown>[] = [];
    if (f.ensNameId !== undefined) parts.push(sql`c.ens_name_id = ${f.ensNameId}`);
    if (f.author !== undefined) parts.push(sql`c.user_id = (SELECT id FROM users WHERE address = ${f.author.toLowerCase()})`);
    if (f.owner !== undefined) parts.push(sql`c.ens_name_id IN (SELECT id FROM ens_names WHERE owner_address = ${f.owner.toLowerCase()})`);
    if (f.before !== undefined) parts.push(sql`c.id < ${f.before}`);
    if (f.viewerId !== undefined) parts.push(sql`NOT EXISTS (SELECT 1 FROM user_blocks b WHERE b.blocker_user_id = ${f.viewerId} AND b.blocked_user_id = c.user_id)`);
    return parts.length > 0 ? sql.join(parts, sql` AND `) : sql`TRUE`;
  }

  /** The set of names the filter keeps (clubs, watchlists), as a query of `id`; undefined for every name. */
  private nameSet(f: CommentFilter): RawBuilder<{ id: number }> | undefined {
    const clubs = f.clubs === undefined ? undefined : sql`${sql.val(f.clubs)}::text[]`;
    if (f.watchedBy !== undefined && clubs !== undefined) {
      return sql`SELECT w.ens_name_id AS id FROM watchlist_items w JOIN ens_names n ON n.id = w.ens_name_id WHERE w.user_id = ${f.watchedBy} AND n.clubs && ${clubs}`;
    }
    if (f.watchedBy !== undefined) return sql`SELECT ens_name_id AS id FROM watchlist_items WHERE user_id = ${f.watchedBy}`;
    if (clubs !== undefined) return sql`SELECT id FROM ens_names WHERE clubs && ${clubs}`;
    return undefined;
  }

  /** Whether the name set is small enough to read name by name (see `ids`). */
  private async small(f: CommentFilter): Promise<boolean> {
    const r = f.watchedBy !== undefined
      ? await sql<{ n: number }>`SELECT count(*)::int AS n FROM (SELECT 1 FROM watchlist_items WHERE user_id = ${f.watchedBy} LIMIT ${SMALL_NAME_SET + 1}) w`.execute(this.deps.db)
      : await sql<{ n: number }>`SELECT coalesce(sum(member_count), 0)::int AS n FROM clubs WHERE name = ANY(${sql.val(f.clubs ?? [])}::text[])`.execute(this.deps.db);
    return (r.rows[0]?.n ?? 0) <= SMALL_NAME_SET;
  }

  /** Large name sets: a club is joined (its names are dense among comments), watched names a semi-join. */
  private inLargeSet(f: CommentFilter, names: RawBuilder<{ id: number }>): { join: RawBuilder<unknown>; where: RawBuilder<unknown> } {
    if (f.watchedBy === undefined && f.clubs !== undefined) {
      return { join: sql`JOIN ens_names n ON n.id = c.ens_name_id`, where: sql`n.clubs && ${sql.val(f.clubs)}::text[]` };
    }
    return { join: sql``, where: sql`c.ens_name_id IN (${names})` };
  }

  /**
   * Ids of one page, newest first. Without clubs or watchlists: one index range (a name's, an
   * author's, or the primary key). With them: a small set of names (at most 5,000) is read name by
   * name (each name's newest comments from comments_name_idx, then merged), a large one by walking
   * the newest comments. Either way the rows read stay bounded (measured at 2,000,000 comments: a
   * 1,000-name club 30 ms by names against 8.6 s by walking; a 10,000-name club 45 ms walking).
   */
  private async ids(f: CommentFilter, limit: number, offset = 0): Promise<number[]> {
    const where = this.conditions(f);
    const names = this.nameSet(f);
    let q: RawBuilder<{ id: number }>;
    if (names === undefined) {
      q = sql`SELECT ${planOnce(f)} c.id FROM comments c WHERE ${where} ORDER BY c.id DESC LIMIT ${sql.lit(limit)} OFFSET ${offset}`;
    } else if (await this.small(f)) {
      q = sql`
        SELECT x.id FROM (SELECT DISTINCT id FROM (${names}) s) n CROSS JOIN LATERAL (
          SELECT c.id FROM comments c WHERE c.ens_name_id = n.id AND ${where} ORDER BY c.id DESC LIMIT ${limit + offset}
        ) x
        ORDER BY x.id DESC LIMIT ${limit} OFFSET ${offset}`;
    } else {
      const large = this.inLargeSet(f, names);
      q = sql`SELECT c.id FROM comments c ${large.join} WHERE ${large.where} AND ${where} ORDER BY c.id DESC LIMIT ${limit} OFFSET ${offset}`;
    }
    return (await q.execute(this.deps.db)).rows.map((r) => Number(r.id));
  }

  /** Matching comments, counted up to FEED_WINDOW + 1 (never the whole table). */
  private async count(f: CommentFilter): Promise<number> {
    const where = this.conditions(f);
    const names = this.nameSet(f);
    let source: RawBuilder<unknown>;
    let plan = sql``;
    if (names === undefined) {
      source = sql`SELECT 1 FROM comments c WHERE ${where}`;
      plan = planOnce(f);
    } else {
      const large = this.inLargeSet(f, names);
      source = sql`SELECT 1 FROM comments c ${large.join} WHERE ${large.where} AND ${where}`;
    }
    const r = await sql<{ n: number }>`SELECT ${plan} count(*)::int AS n FROM (${source} LIMIT ${FEED_WINDOW + 1}) m`.execute(this.deps.db);
    return r.rows[0]?.n ?? 0;
  }

  /** The comments with these ids, newest first, with their names and authors. */
  private async load(ids: number[], db: Executor = this.deps.db): Promise<Row[]> {
    if (ids.length === 0) return [];
    return db.selectFrom('comments as c')
      .modifyFront(GENERIC_PLAN)
      .innerJoin('ens_names as n', 'n.id', 'c.ens_name_id')
      .innerJoin('users as u', 'u.id', 'c.user_id')
      .select(['c.id', 'c.ens_name_id', 'n.name', 'c.user_id', 'u.address as author_address', 'c.body', 'c.created_at', 'c.updated_at', 'n.owner_address', 'n.clubs'])
      .where('c.id', 'in', ids)
      .orderBy('c.id', 'desc')
      .execute();
  }

  private async rows(f: CommentFilter, limit: number, offset = 0): Promise<Row[]> {
    return this.load(await this.ids(f, limit, offset));
  }

  private async one(id: number, db: Executor = this.deps.db): Promise<Row | undefined> {
    return (await this.load([id], db))[0];
  }

  /** One page of comments, newest first, and the cursor of the next. */
  async list(q: { name?: string; author_address?: string; clubs?: string[]; cursor?: string; limit: number }, viewerId?: number): Promise<{ comments: CommentView[]; nextCursor: string | null }> {
    const filter: CommentFilter = { author: q.author_address, clubs: q.clubs, viewerId, before: q.cursor === undefined ? undefined : Number(q.cursor) };
    if (q.name !== undefined) filter.ensNameId = (await nameIdOf(this.deps.db, q.name, 'query.name')).id;
    const rows = await this.rows(filter, q.limit + 1);
    const page = rows.slice(0, q.limit);
    return { comments: page.map(toComment), nextCursor: rows.length > q.limit ? String(page[page.length - 1].id) : null };
  }

  /**
   * The recent comments feed: numbered pages over the newest 10,000 matching comments (style B,
   * the total stops there), or with `cursor` keyset pages at any depth, counted from the cursor.
   */
  async feed(q: { cursor?: string; page: number; limit: number; clubs?: string[]; author_address?: string; owner?: string }, viewerId?: number, watchedBy?: number): Promise<{ comments: FeedCommentView[]; pagination: PageB; nextCursor: string | null; totalCapped: boolean }> {
    const page = q.cursor === undefined ? q.page : 1;
    const offset = (page - 1) * q.limit;
    if (offset + q.limit > FEED_WINDOW) {
      throw new AppError('VALIDATION_ERROR', `query.page reaches past the newest ${FEED_WINDOW} comments; use cursor instead`, { field: 'query.page' });
    }
    const filter: CommentFilter = { author: q.author_address, owner: q.owner, clubs: q.clubs, watchedBy, viewerId, before: q.cursor === undefined ? undefined : Number(q.cursor) };
    const [rows, count] = await Promise.all([this.rows(filter, q.limit + 1, offset), this.count(filter)]);
    const items = rows.slice(0, q.limit);
    const capped = count > FEED_WINDOW;
    return {
      comments: items.map(toFeedComment),
      pagination: pageB(page, q.limit, capped ? FEED_WINDOW : count),
      nextCursor: rows.length > q.limit ? String(items[items.length - 1].id) : null,
      totalCapped: capped,
    };
  }

  /** The caller's daily count, read inside `db` (the posting transaction holds the user's lock). */
  async quota(userId: number, db: Executor = this.deps.db, now = new Date()): Promise<Quota> {
    const { perDay, perMinute } = this.deps.config.comments;
    const dayStart = startOfUtcDay(now);
    // The newest `perDay` comments of the user decide: if all are from today the quota is spent.
    const r = await sql<{ used: number }>`
      SELECT count(*)::int AS used FROM (
        SELECT created_at FROM comments WHERE user_id = ${userId} ORDER BY id DESC LIMIT ${perDay}
      ) latest WHERE created_at >= ${dayStart}`.execute(db);
    const used = r.rows[0]?.used ?? 0;
    return { used, max: perDay, remaining: Math.max(0, perDay - used), resetsAt: iso(new Date(dayStart.getTime() + 86_400_000)), perMinute };
  }

  /** Posts a comment; 429 once the day's quota is spent (the per-minute limit is the route's). */
  async post(userId: number, rawName: string, rawBody: string): Promise<{ comment: CommentView; quota: Omit<Quota, 'resetsAt' | 'perMinute'> }> {
    const body = checkBody(rawBody, 'body.body');
    const target = await nameIdOf(this.deps.db, rawName, 'body.name');
    return this.deps.db.transaction().execute(async (trx) => {
      // One poster at a time per user, so parallel posts cannot overrun the quota.
      await sql`SELECT pg_advisory_xact_lock(hashtextextended(${`comments:${userId}`}, 0))`.execute(trx);
      const before = await this.quota(userId, trx);
      if (before.remaining === 0) {
        const retryAfterSeconds = Math.ceil((Date.parse(before.resetsAt) - Date.now()) / 1000);
        throw new AppError('RATE_LIMITED', `Daily limit of ${before.max} comments reached; it resets at ${before.resetsAt}`, { retryAfterSeconds, quota: before });
      }
      const inserted = await trx.insertInto('comments').values({ ens_name_id: target.id, user_id: userId, body }).returning('id').executeTakeFirstOrThrow();
      const row = await this.one(inserted.id, trx);
      if (!row) throw new Error('inserted comment not found');
      return { comment: toComment(row), quota: { used: before.used + 1, max: before.max, remaining: before.remaining - 1 } };
    });
  }

  /** The comment, if the caller wrote it: 404 when there is none, 403 when it is someone else's. */
  private async own(trx: Executor, userId: number, id: number): Promise<void> {
    const found = await trx.selectFrom('comments').select('user_id').where('id', '=', id).forUpdate().executeTakeFirst();
    if (!found) throw new AppError('NOT_FOUND', 'Comment not found');
    if (found.user_id !== userId) throw new AppError('FORBIDDEN', 'Only its author can change or delete a comment');
  }

  async edit(userId: number, id: number, rawBody: string): Promise<{ comment: CommentView }> {
    const body = checkBody(rawBody, 'body.body');
    return this.deps.db.transaction().execute(async (trx) => {
      await this.own(trx, userId, id);
      await trx.updateTable('comments').set({ body, updated_at: sql<Date>`now()` }).where('id', '=', id).where('body', '<>', body).execute();
      const row = await this.one(id, trx);
      if (!row) throw new AppError('NOT_FOUND', 'Comment not found');
      return { comment: toComment(row) };
    });
  }

  async remove(userId: number, id: number): Promise<{ id: string; deleted: true }> {
    await this.deps.db.transaction().execute(async (trx) => {
      await this.own(trx, userId, id);
      await trx.deleteFrom('comments').where('id', '=', id).execute();
    });
    return { id: String(id), deleted: true };
  }
}
