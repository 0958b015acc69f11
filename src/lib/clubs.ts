/**
 * Built-in clubs, decided by rule from a label (community conventions; leading zeros kept).
 * Further clubs come from CSV lists (club_members); a name's `clubs` column holds both.
 */
export const BUILT_IN_CLUBS = [
  { name: '999', description: 'Three digits, 000 to 999 (1,000 names)', classifications: ['digits'], test: (l: string) => /^[0-9]{3}$/.test(l) },
  { name: '10k', description: 'Four digits, 0000 to 9999 (10,000 names)', classifications: ['digits'], test: (l: string) => /^[0-9]{4}$/.test(l) },
  { name: '100k', description: 'Five digits, 00000 to 99999 (100,000 names)', classifications: ['digits'], test: (l: string) => /^[0-9]{5}$/.test(l) },
  { name: '3-digit-palindromes', description: 'Three-digit palindromes such as 101', classifications: ['digits', 'palindromes'], test: (l: string) => /^[0-9]{3}$/.test(l) && l[0] === l[2] },
  { name: '4-digit-palindromes', description: 'Four-digit palindromes such as 1221', classifications: ['digits', 'palindromes'], test: (l: string) => /^[0-9]{4}$/.test(l) && l[0] === l[3] && l[1] === l[2] },
  { name: '3-letters', description: 'Three letters, aaa to zzz (17,576 names)', classifications: ['letters'], test: (l: string) => /^[a-z]{3}$/.test(l) },
] as const;

/** The classifications GET /clubs filters by (`class[]`), as the original marketplace names them. */
export const CLUB_CLASSIFICATIONS = ['ethmojis', 'digits', 'palindromes', 'prepunk', 'geo', 'letters', 'fantasy', 'crypto', 'ai'] as const;

/** Club identifiers: what a CSV import may name a club, and what the leaderboard filter accepts. */
export const CLUB_NAME_PATTERN = '^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$';
const CLUB_NAME_RE = new RegExp(CLUB_NAME_PATTERN);

export function isClubName(value: string): boolean {
  return CLUB_NAME_RE.test(value);
}

const BUILT_IN_NAMES: ReadonlySet<string> = new Set(BUILT_IN_CLUBS.map((c) => c.name));

export function isBuiltInClub(name: string): boolean {
  return BUILT_IN_NAMES.has(name);
}

/** The built-in clubs a label belongs to, in catalogue order. */
export function builtInClubsOf(label: string): string[] {
  return BUILT_IN_CLUBS.filter((c) => c.test(label)).map((c) => c.name);
}

/**
 * The whole `clubs` value of a name: its built-in clubs in catalogue order, then the clubs of
 * CSV lists that name its label, alphabetically. One canonical order, so "changed" is a plain
 * array comparison.
 */
export function clubsOf(label: string, listed: readonly string[] = []): string[] {
  const builtIn = builtInClubsOf(label);
  const extra = [...new Set(listed)].filter((c) => !BUILT_IN_NAMES.has(c)).sort();
  return [...builtIn, ...extra];
}

/**
 * The labels of a club list file: one name per line (`abc` or `abc.eth`), or CSV whose first
 * column is the name. Blank lines, `#` comments and a `name`/`label` header are skipped;
 * surrounding quotes are removed.
 */
export function parseClubList(text: string): string[] {
  const out: string[] = [];
  for (const [i, line] of text.split(/\r?\n/).entries()) {
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const first = (trimmed.startsWith('"') ? (/^"((?:[^"]|"")*)"/.exec(trimmed)?.[1] ?? '').replace(/""/g, '"') : trimmed.split(',')[0]).trim();
    if (i === 0 && /^(name|label|ens_?name|domain)$/i.test(first)) continue;
    if (first !== '') out.push(first);
  }
  return out;
}
