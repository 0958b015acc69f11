import { defineJob } from '../registry.js';
import { ensureBuiltInClubs, refreshClubs, resyncAllClubs } from '../../services/clubs.service.js';

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
