/**
 * ENS expiry lifecycle alerts: the daily job that finds the names crossing an alert line, the
 * `expiry_notices` ledger (its one writer) and the mail of each alert.
 */
export { runExpiryAlerts, premiumWeiAt, periodsOf, type AlertCounts, type AlertPeriods } from './alerts.js';
export { expiryAlertsJob, expiryMailJob } from './jobs.js';
export type { AlertLine } from './messages.js';
