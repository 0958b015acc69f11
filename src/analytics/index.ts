/**
 * Market history aggregates: rollups of sales, listings, offers, registrations and votes (kept by
 * jobs from trigger-marked dirty hours), period snapshots, per-club stats and holders, and the
 * services that read them (clubs, analytics, charts). Other modules use this door only.
 */
export { AnalyticsService, type FeedParams } from './analytics.service.js';
export { ChartsService, type ChartKind } from './charts.service.js';
export { ClubDirectory, CLUB_LIST_CACHE_SECONDS, CLUB_CACHE_SECONDS, type ClubSort } from './club-directory.service.js';
export { refreshClubStats, ANY_CLUB } from './club-stats.js';
export { refreshRollups, PRICE_BANDS, ROLLUP_KINDS } from './rollups.js';
export { refreshSnapshots } from './snapshots.js';
export { ANALYTICS_PERIODS, CHART_PERIODS, type AnalyticsPeriod, type ChartPeriod } from './periods.js';
export { rollupsJob, rollupsFullJob, snapshotsJob, clubStatsJob } from './jobs.js';
