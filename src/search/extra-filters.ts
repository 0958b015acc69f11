import { sql, type RawBuilder } from 'kysely';
import { DAY } from '../lib/time.js';
import type { NameStatus, SearchFilters } from './filters.js';

interface Periods {
  now: Date;
  gracePeriodDays: number;
  premiumPeriodDays: number;
}

const like = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
const reversed = (s: string) => [...s].reverse().join('');

/** The expiry range of each name status. */
function statusCondition(status: NameStatus, ctx: Periods): RawBuilder<unknown> {
  const { now } = ctx;
  const graceEnd = new Date(now.getTime() - ctx.gracePeriodDays * DAY);
  const premiumEnd = new Date(now.getTime() - (ctx.gracePeriodDays + ctx.premiumPeriodDays) * DAY);
  switch (status) {
    case 'registered': return sql`expiry_date > ${now}`;
    case 'grace': return sql`(expiry_date <= ${now} AND expiry_date > ${graceEnd})`;
    case 'premium': return sql`(expiry_date <= ${graceEnd} AND expiry_date > ${premiumEnd})`;
    case 'available': return sql`expiry_date <= ${premiumEnd}`;
  }
}

/**
 * Conditions of the reference's filters beyond the core set, each on a column of the name row.
 * Watcher counts read `watchers_count` (distinct users watching, kept by the watchlist writes).
 * View counts are not on the name row yet, so every name reads 0: a minimum above 0 matches
 * nothing and a maximum matches everything. `uniqueSeller` is accepted and changes nothing: a name has at most one active
 * listing summary, so results are already one per name.
 */
export function extraConditions(f: SearchFilters, ctx: Periods): RawBuilder<unknown>[] {
  const c: RawBuilder<unknown>[] = [];
  if (f.status) c.push(sql`(${sql.join(f.status.map((s) => statusCondition(s, ctx)), sql` OR `)})`);
  if (f.minWatchersCount !== undefined && f.minWatchersCount > 0) c.push(sql`watchers_count >= ${f.minWatchersCount}`);
  if (f.maxWatchersCount !== undefined) c.push(sql`watchers_count <= ${f.maxWatchersCount}`);
  if ((f.minViewCount ?? 0) > 0) c.push(sql`false`);
  if (f.minClubsCount !== undefined && f.minClubsCount > 0) c.push(sql`cardinality(clubs) >= ${f.minClubsCount}`);
  if (f.maxClubsCount !== undefined) c.push(sql`cardinality(clubs) <= ${f.maxClubsCount}`);
  if (f.hasNumbers !== undefined) c.push(f.hasNumbers ? sql`has_numbers` : sql`NOT has_numbers`);
  if (f.hasEmoji !== undefined) c.push(f.hasEmoji ? sql`has_emoji` : sql`NOT has_emoji`);
  if (f.doesNotContain !== undefined) c.push(sql`label NOT LIKE ${`%${like(f.doesNotContain)}%`}`);
  if (f.doesNotStartWith !== undefined) c.push(sql`label NOT LIKE ${`${like(f.doesNotStartWith)}%`}`);
  if (f.doesNotEndWith !== undefined) c.push(sql`reverse(label) NOT LIKE ${`${like(reversed(f.doesNotEndWith))}%`}`);
  if (f.showListings === true) c.push(sql`listing_price_wei IS NOT NULL`);
  if (f.showUnlisted === true) c.push(sql`listing_price_wei IS NULL`);
  if (f.marketplace !== undefined && f.marketplace !== 'all') {
    c.push(sql`listing_price_wei IS NOT NULL AND EXISTS (SELECT 1 FROM listings l WHERE l.ens_name_id = ens_names.id AND l.status = 'active' AND l.source = ${f.marketplace})`);
  }
  if (f.inAnyClub !== undefined) c.push(f.inAnyClub ? sql`clubs <> '{}'` : sql`clubs = '{}'`);
  const { now } = ctx;
  const graceEnd = new Date(now.getTime() - ctx.gracePeriodDays * DAY);
  if (f.isExpired !== undefined) c.push(f.isExpired ? sql`expiry_date <= ${now}` : sql`expiry_date > ${now}`);
  if (f.isGracePeriod !== undefined) c.push(f.isGracePeriod ? statusCondition('grace', ctx) : sql`NOT ${statusCondition('grace', ctx)}`);
  if (f.isPremiumPeriod !== undefined) c.push(f.isPremiumPeriod ? statusCondition('premium', ctx) : sql`NOT ${statusCondition('premium', ctx)}`);
  if (f.includeExpired === false) c.push(sql`expiry_date > ${graceEnd}`);
  if (f.lastSoldAfter) c.push(sql`last_sale_date >= ${f.lastSoldAfter}`);
  if (f.lastSoldBefore) c.push(sql`last_sale_date <= ${f.lastSoldBefore}`);
  if (f.minDaysSinceLastSale !== undefined) c.push(sql`last_sale_date <= ${new Date(now.getTime() - f.minDaysSinceLastSale * DAY)}`);
  if (f.maxDaysSinceLastSale !== undefined) c.push(sql`last_sale_date >= ${new Date(now.getTime() - f.maxDaysSinceLastSale * DAY)}`);
  if (f.minCreationDate) c.push(sql`registration_date >= ${f.minCreationDate}`);
  if (f.maxCreationDate) c.push(sql`registration_date <= ${f.maxCreationDate}`);
  return c;
}
