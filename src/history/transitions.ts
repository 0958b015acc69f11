import { sql } from 'kysely';
import type { Db } from '../db/client.js';
import { DAY } from '../lib/time.js';
import { recordActivity, type ActivityInput } from './activity.js';

/**
 * `grace_started` and `released` events: a name enters its grace period when its expiry passes,
 * and is released (anyone may register it at the base price) when grace and the premium auction
 * have passed too. Nothing on chain marks either moment, so a scheduled job logs them: each run
 * covers the time since the previous run's checkpoint (`sync_state`), reading the names whose
 * expiry falls in that window (two range reads of `ens_names_expiry_idx`), and writes one event
 * per name and transition, at the moment of the transition, with the new checkpoint in the same
 * transaction. The checkpoint row is locked, so runs never overlap; an event already logged for
 * the same name, type and moment is not written again, so a re-run of a window adds nothing.
 *
 * A name renewed during grace keeps its `grace_started` (it did enter grace); its release moves
 * with its new expiry. The first run starts one day back, not at the beginning of time.
 */

const CHECKPOINT = 'history.name_transitions';
/** At most this much time per transaction; a run after a long pause loops. */
const MAX_WINDOW_MS = DAY;
const FIRST_RUN_LOOKBACK_MS = DAY;

export interface TransitionPeriods {
  gracePeriodDays: number;
  premiumPeriodDays: number;
}

export interface TransitionResult {
  grace_started: number;
  released: number;
  /** the checkpoint reached */
  through: Date;
}

export async function logNameTransitions(db: Db, periods: TransitionPeriods, now = new Date()): Promise<TransitionResult> {
  const result: TransitionResult = { grace_started: 0, released: 0, through: now };
  const releaseMs = (periods.gracePeriodDays + periods.premiumPeriodDays) * DAY;
  for (;;) {
    const done = await db.transaction().execute(async (trx) => {
      await sql`INSERT INTO sync_state (key, value) VALUES (${CHECKPOINT}, 'null'::jsonb) ON CONFLICT (key) DO NOTHING`.execute(trx);
      const row = await trx.selectFrom('sync_state').select('value').where('key', '=', CHECKPOINT).forUpdate().executeTakeFirstOrThrow();
      const stored = (row.value as { through?: string } | null)?.through;
      const from = stored ? new Date(stored) : new Date(now.getTime() - FIRST_RUN_LOOKBACK_MS);
      if (from >= now) return true;
      const to = new Date(Math.min(now.getTime(), from.getTime() + MAX_WINDOW_MS));
      const due = (type: 'grace_started' | 'released', offsetMs: number) => sql<{ id: number; owner_address: string | null; expiry_date: Date }>`
        SELECT n.id, n.owner_address, n.expiry_date FROM ens_names n
        WHERE n.expiry_date > ${new Date(from.getTime() - offsetMs)} AND n.expiry_date <= ${new Date(to.getTime() - offsetMs)}
          AND NOT EXISTS (
            SELECT 1 FROM activity_events a
            WHERE a.ens_name_id = n.id AND a.event_type = ${type} AND a.created_at = n.expiry_date + ${`${offsetMs / 1000} seconds`}::interval
          )
        ORDER BY n.expiry_date, n.id`.execute(trx);
      const [grace, released] = await Promise.all([due('grace_started', 0), due('released', releaseMs)]);
      const events: ActivityInput[] = [
        ...grace.rows.map((n): ActivityInput => ({
          type: 'grace_started', ensNameId: n.id, actor: n.owner_address, platform: 'ens', at: n.expiry_date,
          metadata: { expiry_date: n.expiry_date.toISOString(), grace_ends_at: new Date(n.expiry_date.getTime() + periods.gracePeriodDays * DAY).toISOString() },
        })),
        ...released.rows.map((n): ActivityInput => ({
          type: 'released', ensNameId: n.id, actor: n.owner_address, platform: 'ens', at: new Date(n.expiry_date.getTime() + releaseMs),
          metadata: { expiry_date: n.expiry_date.toISOString() },
        })),
      ].sort((a, b) => a.at!.getTime() - b.at!.getTime());
      await recordActivity(trx, events);
      await trx.updateTable('sync_state').set({ value: JSON.stringify({ through: to.toISOString() }), updated_at: sql`now()` }).where('key', '=', CHECKPOINT).execute();
      result.grace_started += grace.rows.length;
      result.released += released.rows.length;
      return to >= now;
    });
    if (done) return result;
  }
}
