import { defineJob } from '../registry.js';
import { ensureBuiltInClubs, refreshClubs, resyncAllClubs } from '../../services/clubs.service.js';

declare module '../queue.js' {
  interface JobPayloads {
    /**
     * Re-checks the club catalogue and every member count. `resync: true` also recomputes the
     * clubs of every name (after a built-in rule was added, or a bulk load that wrote clubs itself).
     */
    'clubs.refresh': { resync?: boolean };
  }
}

export const clubsRefreshJob = defineJob({
  name: 'clubs.refresh',
  schedule: '17 * * * *',
  retryLimit: 2,
  async handle(payload, deps) {
    const started = Date.now();
    const created = await ensureBuiltInClubs(deps.db);
    // A rule that is new to this database has no members yet: walk every name once.
    if (payload.resync === true || created.length > 0) {
      const changed = await resyncAllClubs(deps.db);
      deps.logger.info({ changed, created, ms: Date.now() - started }, 'club memberships resynced');
      return;
    }
    await refreshClubs(deps.db);
    deps.logger.info({ ms: Date.now() - started }, 'club member counts refreshed');
  },
});
