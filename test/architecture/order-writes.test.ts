import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

/**
 * Only the order domain (src/orders/) writes `listings`, `offers` and a name's order summaries
 * (`ens_names.highest_offer_*`, `listing_price_wei`, `listing_currency`, `listing_created_at`);
 * only the repositories (src/db/repositories/) and the order domain write `ens_names` at all.
 * dependency-cruiser sees imports, not SQL, so this scans the source. The demo and bulk seed
 * loaders (src/seed/) write with COPY and set-based SQL before the service serves anything, and
 * are the one documented exception.
 */
const ALLOWED = [/^src\/orders\//, /^src\/seed\//];
const NAME_WRITERS = [/^src\/orders\//, /^src\/db\/repositories\//, /^src\/seed\//];

const SUMMARY = String.raw`\b(highest_offer_(wei|currency|id)|listing_price_wei|listing_currency|listing_created_at)\b`;
const WRITES: Array<[string, RegExp]> = [
  ['Kysely write of listings/offers', /\b(insertInto|updateTable|deleteFrom|replaceInto|mergeInto)\(\s*['"`](listings|offers)\b/g],
  ['SQL write of listings/offers', /\b(INSERT\s+INTO|UPDATE|DELETE\s+FROM|COPY)\s+(listings|offers)\b/gi],
  // a Kysely .set({...}) or an SQL SET list naming a summary column (either may span lines)
  ['write of a name\'s order summary', new RegExp(String.raw`\.set\(\{[^}]*` + SUMMARY, 'g')],
  ['write of a name\'s order summary', new RegExp(String.raw`\bSET\b[^;\`]*` + SUMMARY, 'g')],
];

const NAME_WRITES: Array<[string, RegExp]> = [
  ['Kysely write of ens_names', /\b(insertInto|updateTable|deleteFrom|replaceInto|mergeInto)\(\s*['"`]ens_names\b/g],
  ['SQL write of ens_names', /\b(INSERT\s+INTO|UPDATE|DELETE\s+FROM|COPY)\s+ens_names\b/gi],
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return full.endsWith('.ts') ? [full] : [];
  });
}

/** Every line outside the `allowed` folders that matches one of `writes`. */
function writesOutside(allowed: RegExp[], writes: Array<[string, RegExp]>, root = 'src'): string[] {
  const found: string[] = [];
  for (const file of sourceFiles(root)) {
    const rel = file.split(path.sep).join('/');
    if (allowed.some((re) => re.test(rel)) || rel.endsWith('.generated.ts') || rel.startsWith('src/db/migrations/')) continue;
    const text = readFileSync(file, 'utf8');
    for (const [what, re] of writes) {
      for (const m of text.matchAll(re)) {
        const line = text.slice(0, m.index).split('\n').length;
        found.push(`${rel}:${line}: ${what}: ${m[0].split('\n')[0].trim()}`);
      }
    }
  }
  return found;
}

/** Every line outside src/orders that writes an order table or a summary column. */
function orderWritesOutsideOrders(root = 'src'): string[] {
  return writesOutside(ALLOWED, WRITES, root);
}

test('only src/orders writes listings, offers and the names\' order summaries', () => {
  const found = orderWritesOutsideOrders();
  assert.deepEqual(found, [], `order writes outside src/orders:\n${found.join('\n')}`);
});

test('only the repositories and src/orders write ens_names', () => {
  const found = writesOutside(NAME_WRITERS, NAME_WRITES);
  assert.deepEqual(found, [], `ens_names writes outside src/db/repositories and src/orders:\n${found.join('\n')}`);
});

test('the scan sees a write when there is one', () => {
  const writes = (text: string) => WRITES.some(([, re]) => text.match(re) !== null);
  assert.ok(writes("await trx.updateTable('offers').set({ status: 'accepted' })"));
  assert.ok(writes("trx.updateTable('ens_names')\n  .set({ owner_address: a,\n    listing_price_wei: null })"));
  assert.ok(writes('UPDATE ens_names n SET highest_offer_wei = NULL WHERE n.id = 1'));
  assert.ok(!writes("db.selectFrom('listings').select(['id', 'listing_price_wei'])"));
  assert.ok(!writes('{ highest_offer_wei: weiString(n.highest_offer_wei) }'));
  const nameWrites = (text: string) => NAME_WRITES.some(([, re]) => text.match(re) !== null);
  assert.ok(nameWrites("await trx.updateTable('ens_names').set({ upvotes: 1 })"));
  assert.ok(nameWrites("trx\n    .insertInto('ens_names')\n    .values(rows)"));
  assert.ok(nameWrites('UPDATE ens_names n SET clubs = v.clubs FROM x'));
  assert.ok(!nameWrites("db.selectFrom('ens_names').select('id')"));
  assert.ok(!nameWrites('SELECT 1 FROM ens_names WHERE id = 1 FOR UPDATE'));
});
