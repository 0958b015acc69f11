import { sql } from 'kysely';
import type { Executor } from '../client.js';
import { AppError } from '../../errors.js';
import { InvalidNameError, normalizeEthName, type EthName } from '../../lib/ens.js';

export interface NameRef {
  id: number;
  name: string;
  owner_address: string | null;
  expiry_date: Date | null;
}

/** The name behind a path or query value: 400 INVALID_NAME when it does not normalize, 404 when unknown. */
export async function resolveName(db: Executor, input: string): Promise<NameRef> {
  let name: string;
  try {
    name = normalizeEthName(input);
  } catch (e) {
    if (e instanceof InvalidNameError) throw new AppError('INVALID_NAME', e.message, { field: 'name' });
    throw e;
  }
  const row = await db.selectFrom('ens_names').select(['id', 'name', 'owner_address', 'expiry_date']).where('name', '=', name).executeTakeFirst();
  if (!row) throw new AppError('ENS_NAME_NOT_FOUND', `${name} is not known here`);
  return row;
}

/**
 * The writes of `ens_names` outside the order domain (chain sync, clubs, votes). The order domain
 * (src/orders) writes the owner and the order summaries under its own locks; nothing else writes
 * the table (test/architecture/order-writes.test.ts).
 */

export interface NewNameRow {
  name: EthName;
  owner: string | null;
  wrapped: boolean;
  registrationDate: Date | null;
  expiryDate: Date | null;
  syncedBlock: number | null;
  syncedLogIndex: number | null;
}

/** Inserts names not stored yet (by labelhash); names already present are left alone. Returns the new ids. */
export async function insertNameRows(trx: Executor, names: readonly NewNameRow[]): Promise<number[]> {
  if (names.length === 0) return [];
  const rows = await trx
    .insertInto('ens_names')
    .values(names.map((n) => ({
      name: n.name.name,
      label: n.name.label,
      labelhash: n.name.labelhash,
      namehash: n.name.namehash,
      token_id: n.name.tokenId,
      has_emoji: n.name.hasEmoji,
      wrapped: n.wrapped,
      owner_address: n.owner,
      registrant_address: n.owner,
      registration_date: n.registrationDate,
      expiry_date: n.expiryDate,
      synced_block: n.syncedBlock,
      synced_log_index: n.syncedLogIndex,
    })))
    .onConflict((oc) => oc.column('labelhash').doNothing())
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}

export interface ChainState {
  owner_address: string | null;
  wrapped: boolean;
  registration_date: Date | null;
  expiry_date: Date | null;
}

/**
 * Records the chain position (block, log index) a name's state is as of, with the new state when
 * `state` is given (the registrant follows the owner). The caller holds the row's lock and has
 * checked that the position is newer.
 */
export async function writeChainState(trx: Executor, id: number, position: { block: number; logIndex: number }, state?: ChainState): Promise<void> {
  await trx
    .updateTable('ens_names')
    .set({
      ...(state ? { ...state, registrant_address: state.owner_address, updated_at: new Date() } : {}),
      synced_block: position.block,
      synced_log_index: position.logIndex,
    })
    .where('id', '=', id)
    .execute();
}

/** Sets the name's last sale unless it already records a later one. */
export async function setLastSale(trx: Executor, id: number, sale: { soldAt: Date; priceWei: string; currency: string }): Promise<void> {
  await trx
    .updateTable('ens_names')
    .set({ last_sale_date: sale.soldAt, last_sale_price_wei: sale.priceWei, last_sale_currency: sale.currency, updated_at: new Date() })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('last_sale_date', 'is', null), eb('last_sale_date', '<=', sale.soldAt)]))
    .execute();
}

/** Writes each name's computed clubs (one statement for the batch). */
export async function setClubs(trx: Executor, updates: ReadonlyArray<{ id: number; clubs: string[] }>): Promise<void> {
  if (updates.length === 0) return;
  await sql`
    UPDATE ens_names n SET clubs = v.clubs, updated_at = now()
    FROM jsonb_to_recordset(${JSON.stringify(updates)}::jsonb) AS v(id bigint, clubs text[])
    WHERE n.id = v.id
  `.execute(trx);
}

/** Moves the name's vote counts by `up` and `down` and returns them with the net score. */
export async function addVotes(trx: Executor, id: number, up: number, down: number): Promise<{ upvotes: number; downvotes: number; net_score: number }> {
  return trx
    .updateTable('ens_names')
    .set({ upvotes: sql`upvotes + ${up}`, downvotes: sql`downvotes + ${down}` })
    .where('id', '=', id)
    .returning(['upvotes', 'downvotes', 'net_score'])
    .executeTakeFirstOrThrow();
}

/**
 * Moves the watcher counts of names by `delta` each (the watchlist domain, inside the transaction
 * that adds or removes the watches). The rows are locked in id order, like every multi-name writer.
 */
export async function addWatchers(trx: Executor, deltas: ReadonlyMap<number, number>): Promise<void> {
  const ids = [...deltas.keys()].filter((id) => deltas.get(id) !== 0).sort((a, b) => a - b);
  if (ids.length === 0) return;
  await sql`
    UPDATE ens_names n SET watchers_count = n.watchers_count + d.delta
    FROM (SELECT * FROM unnest(${ids}::bigint[], ${ids.map((id) => deltas.get(id)!)}::int[]) AS d(id, delta)) d
    WHERE n.id = d.id AND n.id IN (SELECT id FROM ens_names WHERE id = ANY(${ids}::bigint[]) ORDER BY id FOR NO KEY UPDATE)`.execute(trx);
}
