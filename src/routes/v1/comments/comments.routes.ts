import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Envelope, Meta, errors } from '../../../contracts/common.js';
import {
  COMMENT_MAX_CHARS, CommentIdParams, CommentQuota, CommentsPage, CommentsQuery, DeletedComment, EditCommentBody, EditedComment,
  FeedPage, FeedQuery, PostCommentBody, PostedComment,
} from '../../../contracts/comments.js';
import { Type } from 'typebox';
import { ok } from '../../../lib/envelope.js';
import { requireUser } from '../../../plugins/auth.js';
import { clubList, CommentService } from '../../../services/comments.service.js';

const TEXT_RULES =
  `The body is plain text, 1 to ${COMMENT_MAX_CHARS} characters once trimmed (line breaks and tabs allowed; other control ` +
  'characters and bidirectional overrides are 400 VALIDATION_ERROR naming `body.body`). It is stored and returned exactly ' +
  'as sent and never interpreted as HTML: clients must render it as text.';
const BLOCK_RULE = 'With a valid token, comments by users the caller blocked (`/me/blocks`) are left out.';

const FeedMeta = Type.Object({
  ...Meta.properties,
  totalCapped: Type.Boolean({ description: 'true when more than 10,000 comments match; total is then 10,000' }),
});

export const commentRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const comments = new CommentService(app.deps);
  const { perMinute, perDay } = app.deps.config.comments;

  app.get('/comments', {
    config: { auth: 'optional' },
    schema: {
      tags: ['comments'],
      summary: 'Comments on a name (or by an author), newest first',
      description:
        '`name` gives one name\'s comments (what the name page shows); `author_address` one author\'s; `club` (or `clubs[]`) ' +
        'names in those clubs; without filters every comment. Keyset pages: pass `nextCursor` back as `cursor` for the next ' +
        `page; null on the last. ${BLOCK_RULE} No cache. Errors: 400 VALIDATION_ERROR, INVALID_NAME; 404 ENS_NAME_NOT_FOUND.`,
      querystring: CommentsQuery,
      response: { 200: Envelope(CommentsPage), ...errors('VALIDATION_ERROR', 'INVALID_NAME', 'UNAUTHORIZED', 'ENS_NAME_NOT_FOUND') },
    },
  }, async (request) => {
    const q = request.query;
    return ok(await comments.list({ ...q, clubs: clubList(q.club, q['clubs[]']) }, request.user?.id));
  });

  app.get('/comments/feed', {
    config: { auth: 'optional' },
    schema: {
      tags: ['comments'],
      summary: 'The recent comments on every name (the home page feed)',
      description:
        'Newest first, each comment with its name, the name\'s owner and clubs. Filters: `club` (repeat, `clubs[]`, or ' +
        '`clubs` comma-separated), `author_address`, `owner` (names the address owns). Numbered pages (style B) reach the ' +
        'newest 10,000 matching comments (`page` × `limit` at most 10,000, else 400 on query.page) and `total` stops there ' +
        '(`meta.totalCapped`); for deeper pages pass `nextCursor` back as `cursor`, and pagination then counts from the ' +
        `cursor. ${BLOCK_RULE} No cache.`,
      querystring: FeedQuery,
      response: { 200: Envelope(FeedPage, FeedMeta), ...errors('VALIDATION_ERROR', 'UNAUTHORIZED') },
    },
  }, async (request) => {
    const q = request.query;
    const { totalCapped, ...page } = await comments.feed({ ...q, clubs: clubList(q.club, q['clubs[]'], q.clubs) }, request.user?.id);
    return ok(page, { totalCapped });
  });

  app.get('/comments/feed/watchlist', {
    config: { auth: 'required' },
    schema: {
      tags: ['comments'],
      summary: 'Recent comments on the names you watch',
      description: 'The feed (same filters, paging and shape) kept to the names on your watchlists. Comments by users you blocked are left out. No cache.',
      querystring: FeedQuery,
      response: { 200: Envelope(FeedPage, FeedMeta), ...errors('VALIDATION_ERROR', 'UNAUTHORIZED') },
    },
  }, async (request) => {
    const q = request.query;
    const user = requireUser(request);
    const { totalCapped, ...page } = await comments.feed({ ...q, clubs: clubList(q.club, q['clubs[]'], q.clubs) }, user.id, user.id);
    return ok(page, { totalCapped });
  });

  app.get('/comments/quota', {
    config: { auth: 'required' },
    schema: {
      tags: ['comments'],
      summary: 'How many comments you may still post today',
      description: `At most ${perDay} comments per UTC day (\`COMMENTS_PER_DAY\`) and ${perMinute} per minute (\`COMMENTS_PER_MINUTE\`).`,
      response: { 200: Envelope(CommentQuota), ...errors('UNAUTHORIZED') },
    },
  }, async (request) => ok(await comments.quota(requireUser(request).id)));

  app.post('/comments', {
    config: {
      auth: 'required',
      // Per user, not per IP: people behind one address (an office, a mobile carrier) each get their own budget.
      rateLimit: { max: perMinute, timeWindow: '1 minute', keyGenerator: (request) => (request.user ? `comment-user:${request.user.id}` : request.ip) },
    },
    schema: {
      tags: ['comments'],
      summary: 'Comment on a name',
      description:
        `${TEXT_RULES} At most ${perMinute} comments a minute and ${perDay} a UTC day per user: past either, 429 RATE_LIMITED ` +
        'with `Retry-After` (the daily limit also gives `details.quota`). Returns the comment and the quota left.',
      body: PostCommentBody,
      response: { 200: Envelope(PostedComment), ...errors('VALIDATION_ERROR', 'INVALID_NAME', 'UNAUTHORIZED', 'ENS_NAME_NOT_FOUND', 'RATE_LIMITED') },
    },
  }, async (request) => ok(await comments.post(requireUser(request).id, request.body.name, request.body.body)));

  app.patch('/comments/:id', {
    config: { auth: 'required' },
    schema: {
      tags: ['comments'],
      summary: 'Edit your comment',
      description: `${TEXT_RULES} Only the author may edit (403 FORBIDDEN); \`edited\` becomes true when the text changes.`,
      params: CommentIdParams,
      body: EditCommentBody,
      response: { 200: Envelope(EditedComment), ...errors('VALIDATION_ERROR', 'UNAUTHORIZED', 'FORBIDDEN', 'NOT_FOUND') },
    },
  }, async (request) => ok(await comments.edit(requireUser(request).id, Number(request.params.id), request.body.body)));

  app.delete('/comments/:id', {
    config: { auth: 'required' },
    schema: {
      tags: ['comments'],
      summary: 'Delete your comment',
      description: 'Only the author may delete (403 FORBIDDEN). The comment is removed, not hidden.',
      params: CommentIdParams,
      response: { 200: Envelope(DeletedComment), ...errors('VALIDATION_ERROR', 'UNAUTHORIZED', 'FORBIDDEN', 'NOT_FOUND') },
    },
  }, async (request) => ok(await comments.remove(requireUser(request).id, Number(request.params.id))));
};
