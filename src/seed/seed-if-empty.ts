import type { Container } from '../container.js';

/**
 * The embedded default seeds demo data on first start, when there are no names yet. A seed that
 * died half-way (its names' indexes parked) is healed first.
 */
export async function seedIfEmpty(container: Container): Promise<void> {
  const { seedDemoData, seedOptionsFrom, healInterruptedSeed } = await import('./seed.js');
  await healInterruptedSeed(container.pool);
  const any = await container.db.selectFrom('ens_names').select('id').limit(1).executeTakeFirst();
  if (any) return;
  container.logger.info('empty database: seeding demo data');
  const counts = await seedDemoData(container.db, { ...seedOptionsFrom(container.config), pool: container.pool, names: 10_000 });
  container.logger.info({ counts }, 'demo data seeded');
}
