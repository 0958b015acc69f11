import type { Executor } from '../../src/db/client.js';
import { parseEthName } from '../../src/lib/ens.js';
import { DAY } from '../../src/lib/time.js';

export interface NameOptions {
  owner?: string;
  registrationDate?: Date;
  expiryDate?: Date;
  clubs?: string[];
  lastSale?: { date: Date; priceWei: string; currency: string };
}

/** Inserts a .eth name with all its derived forms; owner defaults to nobody, expiry to a year ahead. */
export async function createName(db: Executor, name: string, options: NameOptions = {}) {
  const n = parseEthName(name);
  return db
    .insertInto('ens_names')
    .values({
      name: n.name,
      label: n.label,
      labelhash: n.labelhash,
      namehash: n.namehash,
      token_id: n.tokenId,
      has_emoji: n.hasEmoji,
      owner_address: options.owner?.toLowerCase() ?? null,
      registrant_address: options.owner?.toLowerCase() ?? null,
      registration_date: options.registrationDate ?? new Date(Date.now() - 30 * DAY),
      expiry_date: options.expiryDate ?? new Date(Date.now() + 365 * DAY),
      clubs: options.clubs ?? [],
      last_sale_date: options.lastSale?.date ?? null,
      last_sale_price_wei: options.lastSale?.priceWei ?? null,
      last_sale_currency: options.lastSale?.currency.toLowerCase() ?? null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}
