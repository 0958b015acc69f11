import { sql } from 'kysely';
import type { Db, Executor } from '../db/client.js';
import { topTrending } from '../trends/index.js';

/**
 * The signals recommendations are made of. Every query is a few bounded index ranges: seeds
 * (the names or users a recommendation starts from) are capped, and each seed contributes at
 * most a fixed number of rows, so the cost does not grow with the tables.
 */

/** Days of name views the "also viewed" signal reads. */
export const VIEW_WINDOW_DAYS = 30;
/** Viewers, watchers or voters of the seed names taken as peers. */
const PEERS = 200;
/** Rows read per seed name (its recent viewers, watchers, upvoters). */
const PER_SEED = 100;
/** Rows read per peer (their recent views, watched names, upvotes). */
const PER_PEER = 100;
/** Seed names taken from a user's own history. */
export const SEEDS = 50;

/** A recommended name: its score and how many peers led to it. */
export interface Candidate {
  id: number;
  score: number;
  peers: number;
}

const since = () => sql<string>`(current_date - ${VIEW_WINDOW_DAYS}::int)`;

/**
 * Names the recent viewers of `seedIds` also viewed (not the seeds). `peers` counts the distinct
 * viewers who viewed both, `score` their viewer-days on the candidate. `exceptViewer` leaves the
 * caller's own views out.
 */
export async function alsoViewed(db: Executor, seedIds: readonly number[], limit: number, exceptViewer?: string): Promise<Candidate[]> {
  if (seedIds.length === 0) return [];
  const r = await sql<Candidate>`
    WITH seeds AS (SELECT unnest(${sql.val([...seedIds])}::bigint[]) AS id),
    peers AS (
      SELECT DISTINCT v.viewer FROM seeds CROSS JOIN LATERAL (
        SELECT d.viewer FROM name_views_daily d
        WHERE d.ens_name_id = seeds.id AND d.day >= ${since()} AND d.viewer <> ${exceptViewer ?? ''}
        ORDER BY d.day DESC LIMIT ${PER_SEED}
      ) v
      LIMIT ${PEERS}
    )
    SELECT c.ens_name_id::int AS id, count(*)::int AS score, count(DISTINCT c.viewer)::int AS peers
    FROM peers CROSS JOIN LATERAL (
      SELECT d.ens_name_id, d.viewer FROM name_views_daily d
      WHERE d.viewer = peers.viewer AND d.day >= ${since()}
      ORDER BY d.day DESC LIMIT ${PER_PEER}
    ) c
    WHERE c.ens_name_id NOT IN (SELECT id FROM seeds)
    GROUP BY c.ens_name_id
    ORDER BY peers DESC, score DESC, id
    LIMIT ${limit}`.execute(db);
  return r.rows;
}

/** The names a viewer looked at most recently (newest first). */
export async function recentlyViewed(db: Executor, viewer: string, limit = SEEDS): Promise<number[]> {
  const r = await sql<{ id: number }>`
    SELECT DISTINCT ON (ens_name_id) ens_name_id::int AS id, day FROM (
      SELECT ens_name_id, day FROM name_views_daily WHERE viewer = ${viewer} AND day >= ${since()} ORDER BY day DESC LIMIT ${limit * 2}
    ) v ORDER BY ens_name_id, day DESC`.execute(db);
  return r.rows.map((x) => x.id).slice(0, limit);
}

/**
 * Names watched by the users whose watchlists share the most names with the user's. Each peer
 * counts by its overlap (the user's names it also watches): `score` sums the overlaps of the
 * peers watching a candidate, `peers` counts them. Names the user watches are left out.
 */
export async function coWatched(db: Executor, userId: number, limit: number): Promise<Candidate[]> {
  const r = await sql<Candidate>`
    WITH mine AS (
      SELECT DISTINCT ens_name_id AS id FROM (
        SELECT ens_name_id FROM watchlist_items WHERE user_id = ${userId} ORDER BY created_at DESC LIMIT ${SEEDS}
      ) m
    ),
    peers AS (
      SELECT w.user_id, count(DISTINCT mine.id)::int AS overlap FROM mine CROSS JOIN LATERAL (
        SELECT wi.user_id FROM watchlist_items wi WHERE wi.ens_name_id = mine.id AND wi.user_id <> ${userId} LIMIT ${PER_SEED}
      ) w
      GROUP BY w.user_id ORDER BY overlap DESC, w.user_id LIMIT ${PEERS}
    )
    SELECT c.ens_name_id::int AS id, sum(peers.overlap)::int AS score, count(*)::int AS peers
    FROM peers CROSS JOIN LATERAL (
      SELECT DISTINCT ens_name_id FROM (
        SELECT wi.ens_name_id FROM watchlist_items wi WHERE wi.user_id = peers.user_id ORDER BY wi.created_at DESC LIMIT ${PER_PEER}
      ) x
    ) c
    WHERE NOT EXISTS (SELECT 1 FROM watchlist_items own WHERE own.user_id = ${userId} AND own.ens_name_id = c.ens_name_id)
    GROUP BY c.ens_name_id
    ORDER BY score DESC, peers DESC, id
    LIMIT ${limit}`.execute(db);
  return r.rows;
}

/**
 * Names upvoted by the users who upvoted the most of the names the user upvoted, weighted by
 * that overlap as in `coWatched`. Names the user voted on either way are left out.
 */
export async function coUpvoted(db: Executor, userId: number, limit: number): Promise<Candidate[]> {
  const r = await sql<Candidate>`
    WITH mine AS (
      SELECT ens_name_id AS id FROM votes WHERE user_id = ${userId} AND vote = 1 ORDER BY updated_at DESC LIMIT ${SEEDS}
    ),
    peers AS (
      SELECT v.user_id, count(*)::int AS overlap FROM mine CROSS JOIN LATERAL (
        SELECT x.user_id FROM votes x WHERE x.ens_name_id = mine.id AND x.vote = 1 AND x.user_id <> ${userId}
        ORDER BY x.updated_at DESC LIMIT ${PER_SEED}
      ) v
      GROUP BY v.user_id ORDER BY overlap DESC, v.user_id LIMIT ${PEERS}
    )
    SELECT c.ens_name_id::int AS id, sum(peers.overlap)::int AS score, count(*)::int AS peers
    FROM peers CROSS JOIN LATERAL (
      SELECT x.ens_name_id FROM votes x WHERE x.user_id = peers.user_id AND x.vote = 1 ORDER BY x.updated_at DESC LIMIT ${PER_PEER}
    ) c
    WHERE NOT EXISTS (SELECT 1 FROM votes own WHERE own.user_id = ${userId} AND own.ens_name_id = c.ens_name_id)
    GROUP BY c.ens_name_id
    ORDER BY score DESC, peers DESC, id
    LIMIT ${limit}`.execute(db);
  return r.rows;
}

/** The names a user's own history starts from: watched and upvoted, newest first. */
export async function userSeeds(db: Executor, userId: number): Promise<{ watched: number[]; upvoted: number[] }> {
  const [watched, upvoted] = await Promise.all([
    sql<{ id: number }>`SELECT ens_name_id::int AS id FROM watchlist_items WHERE user_id = ${userId} ORDER BY created_at DESC LIMIT ${SEEDS}`.execute(db),
    sql<{ id: number }>`SELECT ens_name_id::int AS id FROM votes WHERE user_id = ${userId} AND vote = 1 ORDER BY updated_at DESC LIMIT ${SEEDS}`.execute(db),
  ]);
  return { watched: [...new Set(watched.rows.map((r) => r.id))], upvoted: upvoted.rows.map((r) => r.id) };
}

/**
 * Names sharing a club with the seeds (not the seeds), most-voted first among the first found.
 * The seeds' clubs are read first and given as a value, so the planner sees them: a rare club is
 * read by the clubs index, a large one by walking ids; and seeds in no club cost no search at all
 * (asked as a subquery, the planner walked every name for them: 3.7 s at a million names).
 */
export async function clubMates(db: Executor, seedIds: readonly number[], limit: number): Promise<number[]> {
  if (seedIds.length === 0) return [];
  const seeds = await sql<{ clubs: string[] }>`
    SELECT coalesce(array_agg(DISTINCT c), '{}') AS clubs FROM ens_names, unnest(clubs) AS c WHERE id = ANY(${sql.val([...seedIds])}::bigint[])`.execute(db);
  const clubs = seeds.rows[0]?.clubs ?? [];
  if (clubs.length === 0) return [];
  const r = await sql<{ id: number }>`
    SELECT id::int AS id FROM (
      SELECT n.id, n.net_score FROM ens_names n
      WHERE n.searchable AND n.clubs && ${sql.val(clubs)}::text[] AND n.id <> ALL(${sql.val([...seedIds])}::bigint[])
      ORDER BY n.id LIMIT ${limit * 5}
    ) m ORDER BY net_score DESC, id LIMIT ${limit}`.execute(db);
  return r.rows.map((x) => x.id);
}

/** What anyone may like: trending this week, then the most upvoted, then names in the most clubs. */
export async function popular(db: Db, limit: number): Promise<{ trending: number[]; voted: number[]; clubs: number[] }> {
  const trending = (await topTrending(db, 'composite', 168, limit)).filter((t) => t.total > 0).map((t) => t.ens_name_id);
  if (trending.length >= limit) return { trending, voted: [], clubs: [] };
  // Names are ordered by their own id column (an `id::int AS id` alias would sort on the cast and miss the index).
  const voted = (await sql<{ id: number }>`
    SELECT id FROM ens_names WHERE upvotes + downvotes > 0 AND upvotes > 0 AND searchable ORDER BY net_score DESC, id LIMIT ${limit}`.execute(db)).rows.map((r) => Number(r.id));
  if (trending.length + voted.length >= limit) return { trending, voted, clubs: [] };
  const clubs = (await sql<{ id: number }>`
    SELECT id FROM ens_names WHERE searchable AND cardinality(clubs) > 0 ORDER BY cardinality(clubs) DESC, id DESC LIMIT ${limit}`.execute(db)).rows.map((r) => Number(r.id));
  return { trending, voted, clubs };
}

/** The stored ids of full names (`pear.eth`), in the order given; unknown names are dropped. */
export async function idsOfNames(db: Executor, names: readonly string[]): Promise<number[]> {
  if (names.length === 0) return [];
  const rows = await db.selectFrom('ens_names').select(['id', 'name']).where('name', 'in', [...names]).where('searchable', '=', true).execute();
  const byName = new Map(rows.map((r) => [r.name, r.id]));
  return names.flatMap((n) => { const id = byName.get(n); return id === undefined ? [] : [id]; });
}
