import { sql } from 'kysely';
import type { Executor } from '../db/client.js';
import { insertNameRows, writeChainState } from '../db/repositories/ens-names.repository.js';
import type { EthName } from '../lib/ens.js';
import { syncClubsForNames } from '../services/clubs.service.js';
import type { ChainLog, OrderEffects } from './order-effects.js';

/**
 * Writes of chain state onto `ens_names`, shared by the subgraph and the event sync. Every state
 * write carries the chain position it reflects and only lands when that position is newer than
 * the row's `synced_block`/`synced_log_index` (see migration 0006).
 */
export interface ChainPosition {
  block: number;
  logIndex: number;
}

/** The log index that stands for "the state at the end of the block" (a subgraph snapshot). */
export const END_OF_BLOCK = 2_147_483_647;

export interface NameState {
  id: number;
  label: string;
  owner_address: string | null;
  wrapped: boolean;
  registration_date: Date | null;
  expiry_date: Date | null;
  synced_block: number | null;
  synced_log_index: number | null;
}

const STATE_COLUMNS = ['id', 'label', 'owner_address', 'wrapped', 'registration_date', 'expiry_date', 'synced_block', 'synced_log_index'] as const;

export function isNewer(position: ChainPosition, row: Pick<NameState, 'synced_block' | 'synced_log_index'>): boolean {
  if (row.synced_block === null) return true;
  if (position.block !== row.synced_block) return position.block > row.synced_block;
  return position.logIndex > (row.synced_log_index ?? -1);
}

/** Rows of the given names (by labelhash), locked for this transaction. */
export async function lockNamesByLabelhash(trx: Executor, labelhashes: readonly string[]): Promise<Map<string, NameState & { labelhash: string }>> {
  if (labelhashes.length === 0) return new Map();
  const rows = await trx
    .selectFrom('ens_names')
    .select([...STATE_COLUMNS, 'labelhash'])
    .where(sql<boolean>`labelhash = ANY(${[...new Set(labelhashes)]}::text[])`)
    .orderBy('id')
    .forUpdate()
    .execute();
  return new Map(rows.map((r) => [r.labelhash, r]));
}

export interface NewName {
  parsed: EthName;
  owner?: string | null;
  wrapped?: boolean;
  registrationDate?: Date | null;
  expiryDate?: Date | null;
  position?: ChainPosition;
}

/**
 * Inserts names that are not stored yet (with their clubs, in this transaction); names already
 * present are left alone. Returns the ids of the inserted ones.
 */
export async function insertNames(trx: Executor, names: readonly NewName[]): Promise<number[]> {
  const ids = await insertNameRows(trx, names.map((n) => ({
    name: n.parsed,
    owner: n.owner ?? null,
    wrapped: n.wrapped ?? false,
    registrationDate: n.registrationDate ?? null,
    expiryDate: n.expiryDate ?? null,
    syncedBlock: n.position?.block ?? null,
    syncedLogIndex: n.position?.logIndex ?? null,
  })));
  await syncClubsForNames(trx, ids);
  return ids;
}

export interface StateChange {
  owner?: string | null;
  wrapped?: boolean;
  registrationDate?: Date | null;
  expiryDate?: Date | null;
}

/**
 * Applies `change` to a locked name row when `position` is newer than the row's; tells the order
 * rules when the owner moved (with `log`, the event that moved it, when there is one). Returns
 * whether the row was written. `row` is updated in place so that later events of the same batch
 * see the new state.
 */
export async function applyNameState(
  trx: Executor,
  row: NameState,
  change: StateChange,
  position: ChainPosition,
  effects: OrderEffects,
  at: Date,
  log?: ChainLog,
): Promise<boolean> {
  if (!isNewer(position, row)) return false;
  const previousOwner = row.owner_address;
  const next = {
    owner_address: change.owner !== undefined ? change.owner : row.owner_address,
    wrapped: change.wrapped ?? row.wrapped,
    registration_date: change.registrationDate !== undefined ? change.registrationDate : row.registration_date,
    expiry_date: change.expiryDate !== undefined ? change.expiryDate : row.expiry_date,
  };
  const changed =
    next.owner_address !== row.owner_address ||
    next.wrapped !== row.wrapped ||
    !sameTime(next.registration_date, row.registration_date) ||
    !sameTime(next.expiry_date, row.expiry_date);
  await writeChainState(trx, row.id, position, changed ? next : undefined);
  Object.assign(row, next, { synced_block: position.block, synced_log_index: position.logIndex });
  if (next.owner_address !== previousOwner) await effects.ownerChanged(trx, row.id, previousOwner, next.owner_address, at, log);
  return changed;
}

function sameTime(a: Date | null, b: Date | null): boolean {
  return a === null || b === null ? a === b : a.getTime() === b.getTime();
}

/** Seconds since the epoch (decimal string or bigint) as a Date; null for 0 or nothing. */
export function unixToDate(value: string | bigint | number | null | undefined): Date | null {
  if (value === null || value === undefined) return null;
  const seconds = Number(value);
  if (!Number.isFinite(seconds) || seconds <= 0) return null;
  // Expiries of names registered "forever" by contracts can exceed what a timestamptz holds.
  return new Date(Math.min(seconds, 253_402_300_799) * 1000);
}

/** Lower-case address, or null for the zero address / nothing. */
export function ownerOrNull(address: string | null | undefined): string | null {
  if (!address) return null;
  const a = address.toLowerCase();
  return /^0x0{40}$/.test(a) ? null : a;
}
