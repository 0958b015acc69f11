import { DAY, HOUR, MINUTE } from '../lib/time.js';
import type { ActivityLog } from './activity.js';
import type { CopyWriter } from './copy.js';
import type { DemoName } from './model.js';
import type { NameSummaries } from './names.js';
import type { Rng } from './random.js';
import { iso } from './iso.js';


/**
 * Users (the demo accounts first, ids 1-10, then the voters) and their votes. Demo accounts 0-3
 * have verified e-mail addresses, 4-5 unverified ones; some voters have e-mails too.
 */
export async function writeUsers(rng: Rng, now: number, addresses: readonly string[], demoCount: number, users: CopyWriter): Promise<void> {
  for (let i = 0; i < addresses.length; i++) {
    const demo = i < demoCount;
    const created = now - rng.between(30 * DAY, 400 * DAY);
    const hasEmail = demo ? i < 6 : rng.chance(0.08);
    const verified = hasEmail && (demo ? i < 4 : rng.chance(0.5));
    await users.add([i + 1, addresses[i], hasEmail ? (demo ? `demo${i}@example.com` : `user${i}@example.org`) : null,
      verified ? iso(created + rng.between(MINUTE, 2 * DAY)) : null,
      demo && i % 3 === 0 ? `@demo${i}` : null, demo && i % 4 === 1 ? `demo${i}` : null, iso(created), iso(created)]);
  }
}

/**
 * One vote per user and name, cast over the last four weeks (a fifth of them in the last 24 h),
 * mostly on the more valuable names; each vote is also a vote event at the same time, and a vote in
 * the activity log.
 */
export async function writeVotes(rng: Rng, now: number, addresses: readonly string[], demoCount: number, names: readonly DemoName[], votes: CopyWriter, events: CopyWriter,
  log: ActivityLog, summaries: NameSummaries): Promise<void> {
  const userCount = addresses.length;
  const pool = [...names].sort((a, b) => b.value - a.value || a.id - b.id).slice(0, Math.max(200, Math.round(names.length / 4)));
  let eventId = 0;
  for (let user = 1; user <= userCount; user++) {
    const count = user <= demoCount ? rng.int(15, 30) : Math.min(60, 1 + Math.floor(-Math.log(1 - rng.next()) * 12));
    const seen = new Set<number>();
    for (let i = 0; i < count; i++) {
      const name = pool[Math.floor(pool.length * rng.next() ** 1.7)];
      if (seen.has(name.id)) continue;
      seen.add(name.id);
      const vote = rng.chance(0.8) ? 1 : -1;
      const age = rng.weighted({ day: 20, week: 35, month: 45 });
      const at = now - (age === 'day' ? rng.between(MINUTE, 24 * HOUR) : age === 'week' ? rng.between(DAY, 7 * DAY) : rng.between(7 * DAY, 28 * DAY));
      await votes.add([user, name.id, vote, iso(at), iso(at)]);
      summaries.vote(name.id, vote);
      await events.add([++eventId, user, name.id, vote, 0, iso(at)]);
      log.add({ type: 'vote', nameId: name.id, actor: addresses[user - 1], platform: 'grails', metadata: { vote, previous_vote: 0 }, at });
    }
  }
}
