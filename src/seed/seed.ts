import type { Db } from '../db/client.js';

export interface SeedOptions { names: number }

/** Placeholder until the demo-data generator lands. */
export async function seedDemoData(_db: Db, _options: SeedOptions): Promise<Record<string, number>> {
  return {};
}
