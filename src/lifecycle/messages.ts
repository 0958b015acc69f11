import { formatUnits } from 'viem';
import { DAY } from '../lib/time.js';

export type AlertLine = 'name_expiring_30d' | 'name_expiring_7d' | 'name_grace_started' | 'name_premium_started' | 'name_premium_below';

export interface LineFacts {
  name: string;
  expiry: Date;
  role: 'owner' | 'watcher';
  periods: { gracePeriodDays: number; premiumPeriodDays: number; premiumStartUsd: number };
  now: Date;
  /** name_premium_below only */
  premiumWei?: bigint;
  thresholdWei?: bigint;
  ethUsd?: string;
}

/** Wei as ETH with at most 4 decimals, e.g. "0.4213". */
export function formatEth(wei: bigint): string {
  const [whole, fraction = ''] = formatUnits(wei, 18).split('.');
  const kept = fraction.slice(0, 4).replace(/0+$/, '');
  return kept ? `${whole}.${kept}` : whole;
}

const day = (d: Date) => d.toISOString().slice(0, 10);

/** Title, message and metadata of one alert: one place names every line's words. */
export function lineMessage(line: AlertLine, f: LineFacts): { title: string; message: string; metadata: Record<string, unknown> } {
  const graceEnds = new Date(f.expiry.getTime() + f.periods.gracePeriodDays * DAY);
  const premiumEnds = new Date(graceEnds.getTime() + f.periods.premiumPeriodDays * DAY);
  const whose = f.role === 'owner' ? 'Your name' : 'A name you watch,';
  const metadata: Record<string, unknown> = {
    name: f.name, role: f.role, expiry_date: f.expiry.toISOString(), grace_ends_at: graceEnds.toISOString(), premium_ends_at: premiumEnds.toISOString(),
  };
  switch (line) {
    case 'name_expiring_30d':
    case 'name_expiring_7d': {
      const days = line === 'name_expiring_30d' ? 30 : 7;
      return {
        title: `${f.name} expires in ${days} days`,
        message: `${whose} ${f.name}, expires on ${day(f.expiry)}. ${f.role === 'owner' ? 'Renew it to keep it.' : 'Its owner can still renew it.'}`,
        metadata: { ...metadata, days_left: days },
      };
    }
    case 'name_grace_started':
      return {
        title: `${f.name} has expired`,
        message: `${whose} ${f.name}, expired on ${day(f.expiry)}. Its grace period runs until ${day(graceEnds)}; only the owner can renew it until then.`,
        metadata,
      };
    case 'name_premium_started':
      return {
        title: `${f.name} is in its premium auction`,
        message: `${whose} ${f.name}, can now be registered by anyone, at a premium starting at $${f.periods.premiumStartUsd.toLocaleString('en-US')} that halves every day until ${day(premiumEnds)}.`,
        metadata,
      };
    case 'name_premium_below': {
      const premium = f.premiumWei ?? 0n;
      const threshold = f.thresholdWei ?? 0n;
      return {
        title: `${f.name}: premium now below ${formatEth(threshold)} ETH`,
        message: `The premium to register ${f.name} is now ${formatEth(premium)} ETH, below your alert at ${formatEth(threshold)} ETH. It keeps halving daily until ${day(premiumEnds)}.`,
        metadata: { ...metadata, premium_wei: premium.toString(), threshold_wei: threshold.toString(), eth_usd: f.ethUsd ?? null, at: f.now.toISOString() },
      };
    }
  }
}
