import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ok } from '../../../lib/envelope.js';
import { SearchService } from '../../../services/search.service.js';
import { Envelope, errors } from '../../../contracts/common.js';
import { SearchMeta, SearchPage, SearchQuery } from '../../../contracts/search.js';

const SEARCH_DESCRIPTION = `
Searches the names of the marketplace. Authentication optional: with a valid token each result
carries the caller's \`user_vote\`. No cache. Subnames and names that do not normalize never appear.

**Text.** \`q\` is a name or part of one (\`.eth\` optional, ENS-normalized, so \`Apple.ETH\` finds
apple.eth). Under 3 characters it matches the exact label and labels starting with it (shortest
first); from 3 characters also labels containing it; from 5 characters also labels similar to it
(pg_trgm similarity of at least 0.3: shorter texts share trigrams with too many labels). With \`q\` and
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
is 10,000 and \`meta.totalCapped\` is true, so a page never counts the whole table. The count of one
normalized text and filter set is reused for 15 s, so \`total\` may lag a change by that long; the
results themselves are always current.
`.trim();

export const searchRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const service = new SearchService(app.deps);

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
    const { results, pagination, sort, totalCapped } = await service.search(request.query, request.user);
    return ok({ results, pagination }, { sort, totalCapped });
  });
};
