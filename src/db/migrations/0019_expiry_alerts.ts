import { sql, type Kysely } from 'kysely';

/**
 * Expiry alerts (src/lifecycle). `expiry_notices` is the ledger that makes each alert once: one
 * row per name, line, expiry and recipient, written with its notification in one transaction
 * (a renewed name has a new expiry, so its alerts start afresh; the old expiry's rows stay and
 * match nothing). `mailed_at` records the e-mail, so a re-run of its job does not send it twice.
 * The watchers with a "premium below X" threshold are read through a partial index, and users
 * choose whether expiry alerts also come by e-mail (`notify_on_expiry`, on by default; only
 * verified addresses get mail).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE IF NOT EXISTS expiry_notices (
      ens_name_id bigint NOT NULL REFERENCES ens_names(id) ON DELETE CASCADE,
      line text NOT NULL CHECK (line IN ('name_expiring_30d', 'name_expiring_7d', 'name_grace_started', 'name_premium_started', 'name_premium_below')),
      expiry_date timestamptz NOT NULL,
      recipient_address eth_address NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      mailed_at timestamptz,
      PRIMARY KEY (ens_name_id, line, expiry_date, recipient_address)
    );
    CREATE INDEX IF NOT EXISTS watchlist_items_premium_alert_idx ON watchlist_items (ens_name_id)
      INCLUDE (user_id, premium_alert_below_wei) WHERE premium_alert_below_wei IS NOT NULL;
    ALTER TABLE users ADD COLUMN IF NOT EXISTS notify_on_expiry boolean NOT NULL DEFAULT true;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE users DROP COLUMN IF EXISTS notify_on_expiry;
    DROP INDEX IF EXISTS watchlist_items_premium_alert_idx;
    DROP TABLE IF EXISTS expiry_notices;
  `.execute(db);
}
