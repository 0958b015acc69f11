/**
 * Every job's payload, by queue name: the one closed map of the job registry (a new job adds its
 * line here, beside its handler in jobs/index.ts). Types only.
 */
export interface JobPayloads {
  // jobs/handlers/search-purge.job.ts
  'search.purge-expired': Record<string, never>;
  // jobs/handlers/trends-roll.job.ts
  'trends.roll': Record<string, never>;
  // jobs/handlers/leaderboard-awards.job.ts
  /** Rebuilds the awards leaderboard aggregate. The chain sync may send it after new registrations. */
  'awards.refresh': Record<string, never>;
  // jobs/handlers/sync.job.ts
  /** One slice of the subgraph name sync (resumes from its cursor; continues itself when cut short). */
  'sync.names': Record<string, never>;
  /** One slice of the JSON-RPC event sync up to head − CONFIRMATIONS. */
  'sync.events': Record<string, never>;
  /** Today's ETH/USD price from the Chainlink feed. */
  'sync.prices': Record<string, never>;
  // jobs/handlers/leaderboard-refresh.job.ts
  /** Rebuilds the holder leaderboard aggregate. Writers of names, listings or sales may send it after a batch. */
  'leaderboard.refresh': Record<string, never>;
  // jobs/handlers/clubs-refresh.job.ts
  /**
   * Re-checks the club catalogue and every member count. `resync: true` also recomputes the
   * clubs of every name (after a built-in rule was added, or a bulk load that wrote clubs itself).
   */
  'clubs.refresh': { resync?: boolean };
  // jobs/handlers/maintenance.ts
  'maintenance.purge-expired': Record<string, never>;
  // services/email-verification.service.ts
  /**
   * `sealedToken` is the raw token encrypted (AES-256-GCM, key derived from JWT_SECRET), so the
   * job table never holds a usable token; the token table keeps only its SHA-256.
   */
  'mail.verify-email': { userId: number; email: string; sealedToken: string };
  // orders/jobs.ts
  /**
   * Re-check funds and ownership behind orders. With ids: those orders. Empty: the next batch of
   * live orders, least recently checked first.
   */
  'orders.validate': { offerIds?: number[]; listingIds?: number[] };
  /** Listings and offers past their end time → expired. No payload. */
  'orders.expire': Record<string, never>;
  // analytics/jobs.ts
  /** Applies the dirty hours to the market rollups; `full` recomputes every hour (after a bulk load, or nightly). */
  'analytics.rollups': { full?: boolean };
  'analytics.rollups.full': Record<string, never>;
  /** Distinct counts, medians and current totals per period (`force`: the slow periods too). */
  'analytics.snapshots': { force?: boolean };
  /** Rebuilds club_stats and club_holders. */
  'clubs.stats': Record<string, never>;
  // history/jobs.ts
  /** Logs grace_started and released events for names whose expiry passed since the last run. */
  'history.name-transitions': Record<string, never>;
  // lifecycle/jobs.ts
  /** Expiry alerts (30 and 7 days before, grace, premium, premium below a watcher's threshold) crossed since the last run. */
  'lifecycle.expiry-alerts': Record<string, never>;
  /** The e-mail of one expiry alert, keyed by its notice (name, line, expiry, recipient); the address is read when it is sent. */
  'mail.expiry-alert': { ensNameId: number; line: 'name_expiring_30d' | 'name_expiring_7d' | 'name_grace_started' | 'name_premium_started' | 'name_premium_below'; expiryDate: string; recipient: string };
}
