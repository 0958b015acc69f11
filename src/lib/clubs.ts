/**
 * Built-in clubs, decided by rule from a label (community conventions; leading zeros kept).
 * Further clubs come from CSV lists (club_members); a name's `clubs` column holds both.
 */
export const BUILT_IN_CLUBS = [
  { name: '999', description: 'Three digits, 000 to 999 (1,000 names)', test: (l: string) => /^[0-9]{3}$/.test(l) },
  { name: '10k', description: 'Four digits, 0000 to 9999 (10,000 names)', test: (l: string) => /^[0-9]{4}$/.test(l) },
  { name: '100k', description: 'Five digits, 00000 to 99999 (100,000 names)', test: (l: string) => /^[0-9]{5}$/.test(l) },
  { name: '3-digit-palindromes', description: 'Three-digit palindromes such as 101', test: (l: string) => /^[0-9]{3}$/.test(l) && l[0] === l[2] },
  { name: '4-digit-palindromes', description: 'Four-digit palindromes such as 1221', test: (l: string) => /^[0-9]{4}$/.test(l) && l[0] === l[3] && l[1] === l[2] },
  { name: '3-letters', description: 'Three letters, aaa to zzz (17,576 names)', test: (l: string) => /^[a-z]{3}$/.test(l) },
] as const;

/** The built-in clubs a label belongs to, in catalogue order. */
export function builtInClubsOf(label: string): string[] {
  return BUILT_IN_CLUBS.filter((c) => c.test(label)).map((c) => c.name);
}
