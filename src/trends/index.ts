/** The trend counters' door: writers bump them in their own transaction; rankings read the top. */
export {
  bumpTrend,
  bumpTrends,
  COMPOSITE_WEIGHTS,
  hourOf,
  rebuildTrends,
  rollTrendWindows,
  topTrending,
  topTrendingSource,
  trendPeriodStart,
  TREND_PERIOD_HOURS,
  type TrendBump,
  type TrendEntry,
  type TrendMetric,
  type TrendPeriodHours,
} from './trend-counters.js';
