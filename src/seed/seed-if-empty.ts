import type { Container } from '../container.js';

/** The embedded default seeds demo data on first start, when there are no names yet. */
export async function seedIfEmpty(container: Container): Promise<void> {
  const any = await container.db.selectFrom('ens_names').select('id').limit(1).executeTakeFirst();
  if (any) return;
  const { seedDemoData, seedOptionsFrom } = await import('./seed.js');
  container.logger.info('empty database: seeding demo data');
  const counts = await seedDemoData(container.db, { ...seedOptionsFrom(container.config), pool: container.pool, names: 10_000 });
  container.logger.info({ counts }, 'demo data seeded');
}
