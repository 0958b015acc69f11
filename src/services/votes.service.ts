import { sql } from 'kysely';
import { GENERIC_PLAN } from '../db/client.js';
import { currencyJson, jsonValue, weiText } from '../db/json-rows.js';
import { jsonArray, type RawJson } from '../lib/raw-json.js';
import { addVotes } from '../db/repositories/ens-names.repository.js';
import type { Deps } from '../deps.js';
import { AppError } from '../errors.js';
import { recordActivity } from '../history/index.js';
import { InvalidNameError, normalizeEthName } from '../lib/ens.js';
import { offsetOf, pageB, type PageB } from '../lib/pagination.js';
import { bumpTrends } from '../trends/index.js';
import { ACTIVE_WHERE } from '../search/results.js';

export type VoteValue = 1 | -1 | 0;
export type VoteSort = 'upvotes' | 'downvotes' | 'netScore';

export interface VoteStats {
  ensName: string;
  upvotes: number;
  downvotes: number;
  netScore: number;
  userVote: 1 | -1 | null;
}

/**
 * A board entry as the response shows it (LeaderboardEntry, field for field), as JSON text written
 * by PostgreSQL (db/json-rows.ts): the name `n`, and `activeListing` only when it has one (`l`,
 * its newest active listing).
 */
const ENTRY_JSON = jsonValue({
  id: 'n.id',
  name: 'n.name',
  tokenId: weiText('n.token_id'),
  ownerAddress: 'n.owner_address',
  upvotes: 'n.upvotes',
  downvotes: 'n.downvotes',
  netScore: 'n.net_score',
});
const ACTIVE_LISTING_JSON = jsonValue({
  id: 'l.listing_id',
  price_wei: weiText('l.price_wei'),
  currency_address: 'l.currency_address',
  ...currencyJson('l.currency_address'),
  status: 'l.status',
  source: 'l.source',
});
const BOARD_ENTRY_JSON = sql.raw<string>(`CASE WHEN l.listing_id IS NULL THEN ${ENTRY_JSON}::text
  ELSE left(${ENTRY_JSON}::text, -1) || ',"activeListing":' || ${ACTIVE_LISTING_JSON}::text || '}' END`);

/** Each sort reads one partial index over the names with at least one vote (0001, 0003). */
const SORT_COLUMN = { netScore: 'net_score', upvotes: 'upvotes', downvotes: 'downvotes' } as const satisfies Record<VoteSort, string>;

const HAS_VOTES = sql<boolean>`upvotes + downvotes > 0`;


function asVote(v: number | undefined): 1 | -1 | null {
  return v === 1 || v === -1 ? v : null;
}

/** Votes on names: one per user and name, changed in place; every cast is also an event. */
export class VoteService {
  constructor(private readonly deps: Pick<Deps, 'db'>) {}

  /**
   * Casts, changes (1 / -1) or removes (0) the caller's vote. The name row is locked first, so
   * concurrent casts on one name serialize and its counts always equal its votes. `now` is the
   * cast's time (tests replay histories with it).
   */
  async cast(userId: number, ensName: string, vote: VoteValue, now = new Date()): Promise<VoteStats> {
    let name: string;
    try {
      name = normalizeEthName(ensName);
    } catch (e) {
      if (e instanceof InvalidNameError) throw new AppError('INVALID_NAME', `Invalid ENS name: ${e.message}`, { field: 'body.ensName' });
      throw e;
    }
    return this.deps.db.transaction().execute(async (trx) => {
      const target = await trx.selectFrom('ens_names').select(['id', 'name']).where('name', '=', name).forNoKeyUpdate().executeTakeFirst();
      if (!target) throw new AppError('ENS_NAME_NOT_FOUND', 'ENS name not found');
      const current = await trx.selectFrom('votes').select(['vote', 'updated_at']).where('user_id', '=', userId).where('ens_name_id', '=', target.id).executeTakeFirst();
      const previous = current?.vote ?? 0;

      if (vote === 0) {
        if (current) await trx.deleteFrom('votes').where('user_id', '=', userId).where('ens_name_id', '=', target.id).execute();
      } else if (current) {
        await trx.updateTable('votes').set({ vote, updated_at: now }).where('user_id', '=', userId).where('ens_name_id', '=', target.id).execute();
      } else {
        await trx.insertInto('votes').values({ user_id: userId, ens_name_id: target.id, vote, created_at: now, updated_at: now }).execute();
      }
      await trx.insertInto('vote_events').values({ user_id: userId, ens_name_id: target.id, vote, previous_vote: previous, cast_at: now }).execute();
      // Trending counts each user's latest cast once: the earlier one (the vote row's time) leaves its hour.
      await bumpTrends(trx, [
        ...(current ? [{ metric: 'votes' as const, nameId: target.id, at: current.updated_at, delta: -1, positiveDelta: current.vote === 1 ? -1 : 0 }] : []),
        ...(vote !== 0 ? [{ metric: 'votes' as const, nameId: target.id, at: now, delta: 1, positiveDelta: vote === 1 ? 1 : 0 }] : []),
      ]);
      const voter = await trx.selectFrom('users').select('address').where('id', '=', userId).executeTakeFirstOrThrow();
      await recordActivity(trx, { type: 'vote', ensNameId: target.id, actor: voter.address, at: now, metadata: { vote, previous_vote: previous } });

      const up = (vote === 1 ? 1 : 0) - (previous === 1 ? 1 : 0);
      const down = (vote === -1 ? 1 : 0) - (previous === -1 ? 1 : 0);
      const counts = up === 0 && down === 0
        ? await trx.selectFrom('ens_names').select(['upvotes', 'downvotes', 'net_score']).where('id', '=', target.id).executeTakeFirstOrThrow()
        : await addVotes(trx, target.id, up, down);
      const stats: VoteStats = { ensName: target.name, upvotes: counts.upvotes, downvotes: counts.downvotes, netScore: counts.net_score, userVote: asVote(vote) };
      return stats;
    });
  }

  /** Counts of a name, and the viewer's vote when there is a viewer. A name that does not normalize does not exist. */
  async stats(ensName: string, viewerId: number | undefined): Promise<VoteStats> {
    let name: string;
    try {
      name = normalizeEthName(ensName);
    } catch (e) {
      if (e instanceof InvalidNameError) throw new AppError('ENS_NAME_NOT_FOUND', 'ENS name not found');
      throw e;
    }
    const row = await this.deps.db.selectFrom('ens_names').modifyFront(GENERIC_PLAN).select(['id', 'name', 'upvotes', 'downvotes', 'net_score']).where('name', '=', name).executeTakeFirst();
    if (!row) throw new AppError('ENS_NAME_NOT_FOUND', 'ENS name not found');
    const mine = viewerId === undefined
      ? undefined
      : await this.deps.db.selectFrom('votes').select('vote').where('user_id', '=', viewerId).where('ens_name_id', '=', row.id).executeTakeFirst();
    return { ensName: row.name, upvotes: row.upvotes, downvotes: row.downvotes, netScore: row.net_score, userVote: asVote(mine?.vote) };
  }

  /**
   * Names with at least one vote, by the chosen count (descending), ties by name id (ascending,
   * the older record first), so the order is total and pages never overlap.
   */
  async leaderboard(page: number, limit: number, sortBy: VoteSort): Promise<{ leaderboard: RawJson; pagination: PageB }> {
    const { db } = this.deps;
    const column = SORT_COLUMN[sortBy];
    // the page by its sort's partial index, then each name's newest active listing: one statement,
    // one plan whatever the page (GENERIC_PLAN; the page's size in the text, as a parameter's LIMIT
    // is planned as a tenth of the rows). Written as SQL text: built with the query builder, the
    // statement's tree cost a third of the request's service CPU to build and compile.
    const order = sql.raw(column);
    const [rows, total] = await Promise.all([
      sql<{ json: string }>`SELECT ${GENERIC_PLAN} ${BOARD_ENTRY_JSON} AS json
        FROM (SELECT id, name, token_id, owner_address, upvotes, downvotes, net_score FROM ens_names
          WHERE ${HAS_VOTES} ORDER BY ${order} DESC, id ASC LIMIT ${sql.lit(limit)} OFFSET ${offsetOf(page, limit)}) n
        LEFT JOIN LATERAL (SELECT l.id AS listing_id, l.price_wei, l.currency_address, l.status, l.source FROM listings l
          WHERE ${ACTIVE_WHERE} ORDER BY l.created_at DESC, l.id DESC LIMIT 1) l ON true
        ORDER BY n.${order} DESC, n.id ASC`.execute(db).then((r) => r.rows),
      // the names on the board, kept by the writes of the vote counts (0050): sixteen rows, not a count of the board
      sql<{ n: number }>`SELECT ${GENERIC_PLAN} coalesce(sum(names), 0)::int AS n FROM vote_board_counts`.execute(db).then((r) => r.rows[0].n),
    ]);
    return { leaderboard: jsonArray(rows.map((r) => r.json)), pagination: pageB(page, limit, total) };
  }
}
