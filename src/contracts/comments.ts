import { Type } from 'typebox';
import { Address, EnsNameParam, PaginationB, Timestamp, described } from './common.js';

/** Most characters (code points) of a comment, after trimming. */
export const COMMENT_MAX_CHARS = 2000;
/** Most users one user may block. */
export const MAX_BLOCKS = 1000;

const CommentId = Type.String({ pattern: '^[1-9][0-9]{0,17}$', description: 'comment id (a decimal string)', examples: ['1042'] });
const Cursor = Type.String({ pattern: '^[1-9][0-9]{0,17}$', description: 'from `nextCursor` of the previous page: the page after it', examples: ['1042'] });
const CommentLimit = Type.Integer({ minimum: 1, maximum: 100, default: 50, description: 'comments per page, 1 to 100' });
const Clubs = Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 20, description: 'only names in one of these clubs (repeat the parameter or separate with commas)' });
const CommentBody = Type.String({
  minLength: 1,
  maxLength: COMMENT_MAX_CHARS,
  description: `the comment, plain text: 1 to ${COMMENT_MAX_CHARS} characters once trimmed; line breaks and tabs allowed, other control characters and bidirectional overrides refused. Never interpreted as HTML: returned exactly as stored`,
  examples: ['Clean 3-digit, would love to see it listed.'],
});

export const Comment = Type.Object({
  id: CommentId,
  ens_name_id: Type.Integer({ description: 'the name commented on' }),
  name: Type.String({ description: 'the name commented on', examples: ['042.eth'] }),
  user_id: Type.Integer({ description: "the author's user id (what the block list takes)" }),
  author_address: described("the author's address", Address),
  author_persona_id: Type.Null({ description: 'always null (personas are not offered)' }),
  body: CommentBody,
  created_at: Timestamp,
  updated_at: described('when the body was last edited (equals created_at if never)', Timestamp),
  edited: Type.Boolean({ description: 'whether the body was edited after posting' }),
}, {
  description: 'a comment on a name',
  examples: [{
    id: '1042', ens_name_id: 42, name: '042.eth', user_id: 7, author_address: '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266', author_persona_id: null,
    body: 'Clean 3-digit, would love to see it listed.', created_at: '2026-11-22T19:30:00.000Z', updated_at: '2026-11-22T19:30:00.000Z', edited: false,
  }],
});

export const FeedComment = Type.Object({
  ...Comment.properties,
  owner_address: Type.Union([Address, Type.Null()], { description: "the name's owner now" }),
  clubs: Type.Array(Type.String(), { description: "the name's clubs now" }),
}, { description: 'a comment with its name' });

export const CommentsQuery = Type.Object({
  name: Type.Optional(described('only comments on this name (what the name page asks)', EnsNameParam)),
  author_address: Type.Optional(described('only comments by this address', Address)),
  club: Type.Optional(Clubs),
  'clubs[]': Type.Optional(described('the same as `club`', Clubs)),
  cursor: Type.Optional(Cursor),
  limit: CommentLimit,
});

export const CommentsPage = Type.Object({
  comments: Type.Array(Comment, { description: 'newest first' }),
  nextCursor: Type.Union([Cursor, Type.Null()], { description: 'pass as `cursor` for the next page; null on the last page' }),
});

export const FeedQuery = Type.Object({
  cursor: Type.Optional(described('from `nextCursor` of the previous page (instead of `page`): the page after it, at any depth', Cursor)),
  page: Type.Integer({ minimum: 1, maximum: 10_000, default: 1, description: 'page number, from 1 (page × limit at most 10,000); ignored with `cursor`' }),
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'comments per page, 1 to 100' }),
  club: Type.Optional(Clubs),
  clubs: Type.Optional(described('the same as `club`, comma-separated', Type.String({ minLength: 1, maxLength: 2000 }))),
  'clubs[]': Type.Optional(described('the same as `club`', Clubs)),
  author_address: Type.Optional(described('only comments by this address', Address)),
  owner: Type.Optional(described('only comments on names this address owns', Address)),
});

export const FeedPage = Type.Object({
  comments: Type.Array(FeedComment, { description: 'newest first' }),
  pagination: PaginationB,
  nextCursor: Type.Union([Cursor, Type.Null()], { description: 'pass as `cursor` for the next page; null on the last page' }),
});

export const CommentIdParams = Type.Object({ id: CommentId });

export const PostCommentBody = Type.Object({
  name: described('the name to comment on, with or without .eth', EnsNameParam),
  body: CommentBody,
});

export const EditCommentBody = Type.Object({ body: CommentBody });

const QuotaFields = {
  used: Type.Integer({ description: 'comments posted today (UTC)', examples: [3] }),
  max: Type.Integer({ description: 'comments allowed per UTC day', examples: [50] }),
  remaining: Type.Integer({ description: 'comments left today', examples: [47] }),
};

export const CommentQuota = Type.Object({
  ...QuotaFields,
  resetsAt: described('when the day ends and the count starts again', Timestamp),
  perMinute: Type.Integer({ description: 'comments allowed per minute (a burst limit beside the daily one)', examples: [5] }),
}, { description: "the caller's posting quota" });

export const PostedComment = Type.Object({
  comment: Comment,
  quota: Type.Object(QuotaFields, { description: 'the quota after this comment' }),
});

export const EditedComment = Type.Object({ comment: Comment });
export const DeletedComment = Type.Object({ id: CommentId, deleted: Type.Literal(true, { description: 'always true' }) });

export const Block = Type.Object({
  user_id: Type.Integer({ description: 'the blocked user' }),
  address: described("the blocked user's address", Address),
  created_at: described('when they were blocked', Timestamp),
});

export const BlockList = Type.Object({ blocks: Type.Array(Block, { description: `newest first, at most ${MAX_BLOCKS}` }) });

export const AddBlockBody = Type.Object({
  user: Type.String({ minLength: 1, maxLength: 255, description: 'the user to block: an address, or a name (its owner is blocked)', examples: ['0x70997970c51812dc3a010c7d01b50e0d17dc79c8', 'vitalik.eth'] }),
});

export const AddedBlock = Type.Object({
  blocker_user_id: Type.Integer({ description: 'you' }),
  blocked_user_id: Type.Integer({ description: 'the blocked user' }),
  address: described("the blocked user's address", Address),
});

export const BlockUserParams = Type.Object({ userId: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'the blocked user id' }) });

export const RemovedBlock = Type.Object({
  blocker_user_id: Type.Integer({ description: 'you' }),
  blocked_user_id: Type.Integer({ description: 'the user no longer blocked' }),
  removed: Type.Boolean({ description: 'false when the user was not blocked' }),
});
