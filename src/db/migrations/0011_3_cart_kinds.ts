import { sql, type Kysely } from 'kysely';

/**
 * The web app's cart types (`sales`, `registrations`) beside ours (`buy`, `register`). What a
 * type accepts is its kind, kept with the type: `purchase` takes names with an active listing,
 * `registration` names that are expired (or have no expiry on record).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE cart_types ADD COLUMN kind text NOT NULL DEFAULT 'purchase' CHECK (kind IN ('purchase', 'registration'));
    UPDATE cart_types SET kind = 'registration' WHERE type = 'register';
    INSERT INTO cart_types (type, description, kind) VALUES
      ('sales', 'Listed names to buy (the web app''s name for buy)', 'purchase'),
      ('registrations', 'Expired or released names to register (the web app''s name for register)', 'registration')
    ON CONFLICT (type) DO NOTHING;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DELETE FROM cart_items WHERE cart_type IN ('sales', 'registrations');
    DELETE FROM cart_types WHERE type IN ('sales', 'registrations');
    ALTER TABLE cart_types DROP COLUMN IF EXISTS kind;
  `.execute(db);
}
