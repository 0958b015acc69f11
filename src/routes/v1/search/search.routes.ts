import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ok } from '../../../lib/envelope.js';
import { SearchService } from '../../../services/search.service.js';
import { BulkSearchService } from '../../../services/bulk-search.service.js';
import { Envelope, errors } from '../../../contracts/common.js';
import { BulkFiltersBody, BulkFiltersPage, BulkSearchBody, SearchMeta, SearchPage, SearchQuery } from '../../../contracts/search.js';
import { SIMILAR_GUARD } from '../../../search/query.js';

/** 10,000 names of up to 255 characters each fit. */
const BULK_BODY_LIMIT = 3 * 1024 * 1024;

const SEARCH_DESCRIPTION = `
Searches the names of the marketplace. Authentication optional: with a valid token each result
carries the caller's \`user_vote\`. No cache. Subnames and names that do not normalize never appear.

**Text.** \`q\` is a name or part of one (\`.eth\` optional, ENS-normalized, so \`Apple.ETH\` finds
apple.eth). Under 3 characters it matches the exact label and labels starting with it (shortest
first); from 3 characters also labels containing it; from 5 characters also labels similar to it
(pg_trgm similarity of at least 0.3: shorter texts share trigrams with too many labels). A text without
letters or digits (emoji only) matches by exact label and prefix only. Similar labels are bounded: they
are looked up bar by bar, from the labels sharing all of the text's trigrams down to the 0.3 bar, and
the bar is lowered only while the trigram index names at most ${SIMILAR_GUARD} labels at it (and the next bar
is not known to name more), so a text whose trigrams are common (\`sting\`: 40,000 labels share two of
its six at a million names) shows only the labels above the bar it reached (similarity above 0.5 for
\`sting\`), while a text whose 0.3 bar names few labels shows every label at least 0.3 similar. With \`q\` and
no \`sortBy\` (or \`sortBy=relevance\`) results come by relevance: exact name, then prefix matches, then
substring matches, then similar labels; within each, more similar, then shorter, then alphabetical.

**Sorting.** \`sortBy\`: price (lowest active listing), expiry_date, registration_date, last_sale_date,
last_sale_price, character_count, alphabetical (code-point order), offer (highest pending offer),
listing_date (newest active listing), votes (net score); character_count ties go alphabetical. Without
\`q\` the default is listing_date.
\`sortOrder\` defaults per key: asc for price, expiry_date, character_count, alphabetical; desc for the
others. Names without a value for the key (unlisted names for price…) come last in both directions;
ties go by id.

**Filters**, in bracket notation (\`filters[minPrice]=1000&filters[clubs][]=999&filters[clubs][]=10k\`)
or flat (\`minPrice=1000&clubs=999,10k\`, \`clubs[]=999\`): minPrice, maxPrice (lowest listing price,
wei), minOffer, maxOffer (highest offer, wei), minLength, maxLength (characters; an emoji counts once),
digits, letters (a-z), emoji, repeatingChars (each \`include\` = has at least one, \`exclude\` = has none,
\`only\` = nothing else; for repeatingChars include = some character repeated in a row such as
\`apple\`, only = one character throughout such as \`000\`), contains, startsWith, endsWith,
listed, hasOffer, hasSales (true/false), clubs (in any of them), excludeClubs (in none of them),
status (registered: not expired; grace: expired for less than GRACE_PERIOD_DAYS = 90 days; premium:
the PREMIUM_PERIOD_DAYS = 21 days after that; available: later), expiringWithinDays (registered and
expiring within N days), owner (address). Filters combine with AND. An unknown parameter or
filter, a bad value, a filter given twice, or a minimum above its maximum is 400 VALIDATION_ERROR
with \`details.field\` naming it.

**Pagination** (style B, inside \`data\`): the first 10,000 matches can be paged (\`page × limit\` at
most 10,000, otherwise 400 on query.page). \`total\` is exact up to 10,000; when more names match it
is 10,000 and \`meta.totalCapped\` is true, so a page never counts the whole table. With \`q\` it counts
the names the pages can reach: exact, prefix and substring matches, and the similar labels above the
bar the text reached (not every label 0.3 similar when the bar was raised). The count of one
normalized text and filter set, and the similar labels of one text, are reused for 15 s, so \`total\`
and which similar labels appear may lag a change by that long; after that a count is recounted beside
the request that finds it old, which (like the requests of the next 45 s until the recount lands)
still gets the old one: a \`total\` is at most a minute old. Everything else is always current.
`.trim();

export const searchRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const service = new SearchService(app.deps);
  const bulk = new BulkSearchService(app.deps);

  app.get('/search', {
    config: { auth: 'optional' },
    schema: {
      tags: ['search'],
      summary: 'Global search of names with filters and sorts',
      description: SEARCH_DESCRIPTION,
      querystring: SearchQuery,
      response: { 200: Envelope(SearchPage, SearchMeta), ...errors('VALIDATION_ERROR', 'UNAUTHORIZED') },
    },
  }, async (request) => {
    const { results, pagination, sort, totalCapped } = await service.page(request.query, request.user);
    return ok({ results, pagination }, { sort, totalCapped });
  });

  app.post('/search/bulk', {
    config: { auth: 'optional' },
    bodyLimit: BULK_BODY_LIMIT,
    schema: {
      tags: ['search'],
      summary: 'Look up many exact names at once',
      description: [
        '`terms`: 1 to 10,000 names (`.eth` optional, ENS-normalized; 10,001 or more is 400 VALIDATION_ERROR on body.terms).',
        '`page`/`limit` page the terms themselves, in the order sent: each term of the page is its name\'s standard search result',
        '(with each active listing\'s `order_data`), or, when no such name is in the marketplace (or the term is not a .eth name),',
        'a placeholder with `id: 0`, the name, empty `token_id` and zero values. `total` is the number of terms. Optional sign-in',
        '(adds `user_vote`). A page costs a fixed number of statements whatever the number of terms. No cache.',
      ].join(' '),
      body: BulkSearchBody,
      response: { 200: Envelope(SearchPage), ...errors('VALIDATION_ERROR', 'UNAUTHORIZED', 'PAYLOAD_TOO_LARGE') },
    },
  }, async (request) => ok(await bulk.exact(request.body, request.user)));

  app.post('/search/bulk-filters', {
    config: { auth: 'optional' },
    bodyLimit: BULK_BODY_LIMIT,
    schema: {
      tags: ['search'],
      summary: 'Many exact names, filtered and sorted',
      description: [
        '`terms` as POST /search/bulk (up to 10,000); `filters` is an object of the global search filters (same names and values),',
        '`sortBy`/`sortOrder` its sorts (without `sortBy`, the order of `terms`; nulls last). Only names that exist and pass the',
        'filters come back (no placeholders, each once), paged by `page`/`limit`; `stats` counts the terms sent and the names',
        'matched. One statement finds the matches over the name index, then one page of standard results is loaded. No cache.',
      ].join(' '),
      body: BulkFiltersBody,
      response: { 200: Envelope(BulkFiltersPage), ...errors('VALIDATION_ERROR', 'UNAUTHORIZED', 'PAYLOAD_TOO_LARGE') },
    },
  }, async (request) => ok(await bulk.filtered(request.body, request.user)));
};
