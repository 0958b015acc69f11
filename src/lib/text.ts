/**
 * User-written plain text (comments). Stored and returned as sent, never rendered as HTML: the
 * only checks are on length and on characters that have no business in a comment.
 */

/**
 * C0 controls other than tab and line feed, DEL, C1 controls, and the bidirectional overrides and
 * isolates that make text display in another order than it is stored (used to disguise links).
 */
// eslint-disable-next-line no-control-regex
const FORBIDDEN = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/u;

export type TextProblem = 'empty' | 'too_long' | 'control_character';

export interface CleanText {
  text?: string;
  problem?: TextProblem;
  /** Code point index of the first forbidden character. */
  at?: number;
}

/**
 * `raw` with Windows line ends made `\n` and surrounding white space trimmed, if it is 1 to `max`
 * characters (code points) and has no forbidden character; otherwise what is wrong with it.
 */
export function cleanText(raw: string, max: number): CleanText {
  const text = raw.replace(/\r\n?/g, '\n').trim();
  const bad = FORBIDDEN.exec(text);
  if (bad) return { problem: 'control_character', at: [...text.slice(0, bad.index)].length };
  const length = [...text].length;
  if (length === 0) return { problem: 'empty' };
  if (length > max) return { problem: 'too_long' };
  return { text };
}
