import { DAY } from '../lib/time.js';

const two = Array.from({ length: 60 }, (_, i) => String(i).padStart(2, '0'));
const three = Array.from({ length: 1000 }, (_, i) => String(i).padStart(3, '0'));
/** `YYYY-MM-DDT` by day number: a seed touches a few thousand days, millions of times. */
const days = new Map<number, string>();

/**
 * `new Date(ms).toISOString()`, several times faster for the tens of millions of timestamps a
 * big seed writes (years 1970 to 9999).
 */
export function iso(ms: number): string {
  const t = Math.floor(ms);
  const day = Math.floor(t / DAY);
  let prefix = days.get(day);
  if (prefix === undefined) {
    prefix = new Date(day * DAY).toISOString().slice(0, 11);
    days.set(day, prefix);
  }
  let rest = t - day * DAY;
  const hours = Math.floor(rest / 3_600_000);
  rest -= hours * 3_600_000;
  const minutes = Math.floor(rest / 60_000);
  rest -= minutes * 60_000;
  const seconds = Math.floor(rest / 1000);
  return `${prefix}${two[hours]}:${two[minutes]}:${two[seconds]}.${three[rest - seconds * 1000]}Z`;
}
