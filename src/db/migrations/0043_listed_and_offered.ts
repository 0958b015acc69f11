import { sql, type Kysely } from 'kysely';

/**
 * The searchable names that are both listed and under offer (search with `filters[listed]=true`
 * and `filters[hasOffer]=true`, in any sort). The two sets are large and their overlap small
 * (39,160 listed and 25,299 offered names of a million, 1,506 both), so neither one's index served
 * it: the planner read every offered name's row to keep the listed ones (20,000 pages, 60-110 ms a
 * page in every sort); from this index the page reads the 1,506 rows and sorts them (1.5-7 ms).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`SET LOCAL statement_timeout = 0`.execute(db);
  await sql`CREATE INDEX ens_names_s_listed_offered_idx ON ens_names (id)
    WHERE searchable AND listing_price_wei IS NOT NULL AND highest_offer_wei IS NOT NULL`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS ens_names_s_listed_offered_idx`.execute(db);
}
