import { sql } from 'kysely';
import type { Db, Executor } from '../db/client.js';
import { setClubs } from '../db/repositories/ens-names.repository.js';
import { AppError } from '../errors.js';
import { BUILT_IN_CLUBS, clubsOf, isBuiltInClub, isClubName } from '../lib/clubs.js';
import { InvalidNameError, parseLabel } from '../lib/ens.js';

/**
 * Club membership. A club is a row of `clubs`; membership is either a rule on the label
 * (built-in clubs, lib/clubs.ts) or a row of `club_members` (CSV lists, by label). Each name
 * carries the union in `ens_names.clubs` (GIN-indexed), and each club a maintained
 * `member_count`: the number of names in the database that carry it.
 *
 * Whoever writes names (chain sync) calls `syncClubsForNames(trx, ids)` in the same transaction;
 * bulk loaders that write `clubs` themselves (the seed) run `refreshClubs` after; the scheduled
 * `clubs.refresh` job re-counts every club from the names (GIN index), correcting any drift.
 */
const BATCH = 5000;

/** Upserts the built-in club catalogue; returns the clubs that did not exist yet. */
export async function ensureBuiltInClubs(db: Executor): Promise<string[]> {
  const rows = await db
    .insertInto('clubs')
    .values(BUILT_IN_CLUBS.map((c) => ({ name: c.name, description: c.description, source: 'rule' as const, classifications: [...c.classifications] })))
    .onConflict((oc) => oc.column('name').doUpdateSet({ description: (eb) => eb.ref('excluded.description'), classifications: (eb) => eb.ref('excluded.classifications') }).where('clubs.source', '=', 'rule'))
    .returning(['name', sql<boolean>`xmax = 0`.as('inserted')])
    .execute();
  return rows.filter((r) => r.inserted).map((r) => r.name);
}

/**
 * Recomputes `clubs` of the given names (rules + CSV lists) and moves the member counts of the
 * clubs they entered or left. Call it inside the transaction that wrote the names. The names are
 * locked while their old and new clubs are compared, and each count moves by the difference in
 * one atomic update (clubs in name order, so concurrent writers cannot deadlock), so the counts
 * stay exact for every name whose clubs change only through this function; a bulk writer that
 * sets `clubs` itself runs `refreshClubs` afterwards. Returns how many names changed.
 */
export async function syncClubsForNames(trx: Executor, ids: readonly number[]): Promise<number> {
  let changed = 0;
  const deltas = new Map<string, number>();
  for (let i = 0; i < ids.length; i += BATCH) {
    const result = await applyClubs(trx, ids.slice(i, i + BATCH));
    changed += result.changed;
    for (const [club, d] of result.deltas) deltas.set(club, (deltas.get(club) ?? 0) + d);
  }
  for (const club of [...deltas.keys()].sort()) {
    const d = deltas.get(club) ?? 0;
    if (d !== 0) await sql`UPDATE clubs SET member_count = GREATEST(member_count + ${d}, 0) WHERE name = ${club}`.execute(trx);
  }
  return changed;
}

/** Writes the computed clubs of one batch of names; returns the membership changes per club. */
async function applyClubs(trx: Executor, ids: readonly number[]): Promise<{ changed: number; deltas: Map<string, number> }> {
  const deltas = new Map<string, number>();
  if (ids.length === 0) return { changed: 0, deltas };
  const names = await trx.selectFrom('ens_names').select(['id', 'label', 'clubs']).where(sql<boolean>`id = ANY(${[...ids]}::bigint[])`).forUpdate().execute();
  if (names.length === 0) return { changed: 0, deltas };
  const listed = await trx
    .selectFrom('club_members')
    .select(['label', 'club'])
    .where(sql<boolean>`label = ANY(${[...new Set(names.map((n) => n.label))]}::text[])`)
    .execute();
  const listedByLabel = new Map<string, string[]>();
  for (const m of listed) listedByLabel.set(m.label, [...(listedByLabel.get(m.label) ?? []), m.club]);

  const updates: { id: number; clubs: string[] }[] = [];
  const move = (club: string, d: number) => deltas.set(club, (deltas.get(club) ?? 0) + d);
  for (const n of names) {
    const next = clubsOf(n.label, listedByLabel.get(n.label));
    if (sameArray(next, n.clubs)) continue;
    updates.push({ id: n.id, clubs: next });
    for (const c of new Set(n.clubs)) if (!next.includes(c)) move(c, -1);
    for (const c of next) if (!n.clubs.includes(c)) move(c, +1);
  }
  await setClubs(trx, updates);
  return { changed: updates.length, deltas };
}

function sameArray(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/**
 * Sets `member_count` of the given clubs (all clubs when omitted) from the names that carry
 * them. Each count is one GIN-index lookup. The club rows are locked first, so the count is
 * taken after any concurrent writer of the same clubs has committed.
 */
export async function recountClubs(db: Executor, clubs?: readonly string[]): Promise<void> {
  if (clubs !== undefined && clubs.length === 0) return;
  const only = clubs === undefined ? sql`true` : sql`name = ANY(${[...clubs]}::text[])`;
  await sql`SELECT name FROM clubs WHERE ${only} ORDER BY name FOR UPDATE`.execute(db);
  await sql`
    UPDATE clubs c SET member_count = x.n
    FROM (
      SELECT k.name, (SELECT count(*) FROM ens_names e WHERE e.clubs @> ARRAY[k.name]::text[])::int AS n
      FROM clubs k WHERE ${only}
    ) x
    WHERE c.name = x.name AND c.member_count <> x.n
  `.execute(db);
}

/**
 * Recomputes `clubs` of every name, in batches of its own transactions (after a rule changed or
 * a bulk load that wrote clubs itself), then every member count. Returns how many names changed.
 */
export async function resyncAllClubs(db: Db): Promise<number> {
  let last = 0;
  let changed = 0;
  for (;;) {
    const rows = await db.selectFrom('ens_names').select('id').where('id', '>', last).orderBy('id').limit(BATCH).execute();
    if (rows.length === 0) break;
    last = rows[rows.length - 1].id;
    changed += await db.transaction().execute(async (trx) => (await applyClubs(trx, rows.map((r) => r.id))).changed);
  }
  await refreshClubs(db);
  return changed;
}

/** The refresh the seed and the scheduled job run: catalogue present, every count exact. */
export async function refreshClubs(db: Db): Promise<void> {
  await ensureBuiltInClubs(db);
  await db.transaction().execute(async (trx) => {
    await sql`SET LOCAL statement_timeout = '10min'`.execute(trx);
    await recountClubs(trx);
  });
}

export interface ImportResult {
  club: string;
  /** distinct valid labels in the list */
  labels: number;
  added: number;
  removed: number;
  /** names in the database whose clubs changed */
  namesUpdated: number;
  invalid: { value: string; reason: string }[];
}

/**
 * Makes the CSV club `club` list exactly `values` (names or labels; `.eth` optional): members
 * not in the list leave, new ones join, and the names concerned are updated, in one transaction.
 */
export async function importClub(db: Db, club: string, values: readonly string[], description?: string): Promise<ImportResult> {
  if (!isClubName(club)) throw new AppError('VALIDATION_ERROR', 'club name must be 1 to 64 letters, digits, "-" or "_"', { field: 'club' });
  if (isBuiltInClub(club)) throw new AppError('CONFLICT', `"${club}" is a built-in club; its members follow a rule`);
  const labels = new Set<string>();
  const invalid: ImportResult['invalid'] = [];
  for (const value of values) {
    try {
      labels.add(parseLabel(value));
    } catch (e) {
      if (!(e instanceof InvalidNameError)) throw e;
      invalid.push({ value, reason: e.message });
    }
  }

  return db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto('clubs')
      .values({ name: club, description: description ?? '', source: 'csv' })
      .onConflict((oc) => oc.column('name').doUpdateSet(description === undefined ? { source: 'csv' } : { description }).where('clubs.source', '=', 'csv'))
      .returning('name')
      .executeTakeFirst();
    if (!row) throw new AppError('CONFLICT', `"${club}" is a built-in club; its members follow a rule`);

    const existing = new Set((await trx.selectFrom('club_members').select('label').where('club', '=', club).execute()).map((r) => r.label));
    const added = [...labels].filter((l) => !existing.has(l));
    const removed = [...existing].filter((l) => !labels.has(l));
    for (let i = 0; i < removed.length; i += BATCH) {
      await trx.deleteFrom('club_members').where('club', '=', club).where(sql<boolean>`label = ANY(${removed.slice(i, i + BATCH)}::text[])`).execute();
    }
    for (let i = 0; i < added.length; i += BATCH) {
      await sql`INSERT INTO club_members (club, label) SELECT ${club}, unnest(${added.slice(i, i + BATCH)}::text[]) ON CONFLICT DO NOTHING`.execute(trx);
    }

    const moved = [...added, ...removed];
    let namesUpdated = 0;
    const touched = new Set<string>([club]);
    for (let i = 0; i < moved.length; i += BATCH) {
      const ids = (await trx.selectFrom('ens_names').select('id').where(sql<boolean>`label = ANY(${moved.slice(i, i + BATCH)}::text[])`).execute()).map((r) => r.id);
      const result = await applyClubs(trx, ids);
      namesUpdated += result.changed;
      for (const c of result.deltas.keys()) touched.add(c);
    }
    await recountClubs(trx, [...touched]);
    return { club, labels: labels.size, added: added.length, removed: removed.length, namesUpdated, invalid };
  });
}
