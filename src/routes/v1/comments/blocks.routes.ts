import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Envelope, errors } from '../../../contracts/common.js';
import { AddBlockBody, AddedBlock, BlockList, BlockUserParams, MAX_BLOCKS, RemovedBlock } from '../../../contracts/comments.js';
import { ok } from '../../../lib/envelope.js';
import { requireUser } from '../../../plugins/auth.js';
import { BlockService } from '../../../services/blocks.service.js';

export const blockRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const blocks = new BlockService(app.deps);

  app.get('/me/blocks', {
    config: { auth: 'required' },
    schema: {
      tags: ['comments'],
      summary: 'Users you blocked',
      description: `Newest first, at most ${MAX_BLOCKS}. Their comments are left out of every comment list you read.`,
      response: { 200: Envelope(BlockList), ...errors('UNAUTHORIZED') },
    },
  }, async (request) => ok(await blocks.list(requireUser(request).id)));

  app.post('/me/blocks', {
    config: { auth: 'required' },
    schema: {
      tags: ['comments'],
      summary: 'Block a user',
      description:
        '`user` is an address, or a name whose owner is blocked. Only users who have signed in can be blocked (404 USER_NOT_FOUND ' +
        `otherwise); yourself is 400; blocking twice is harmless; at most ${MAX_BLOCKS} (409 CONFLICT). The blocked user is not told.`,
      body: AddBlockBody,
      response: { 200: Envelope(AddedBlock), ...errors('VALIDATION_ERROR', 'INVALID_NAME', 'UNAUTHORIZED', 'ENS_NAME_NOT_FOUND', 'USER_NOT_FOUND', 'CONFLICT') },
    },
  }, async (request) => ok(await blocks.add(requireUser(request).id, request.body.user)));

  app.delete('/me/blocks/:userId', {
    config: { auth: 'required' },
    schema: {
      tags: ['comments'],
      summary: 'Unblock a user',
      description: '`removed` is false when the user was not blocked.',
      params: BlockUserParams,
      response: { 200: Envelope(RemovedBlock), ...errors('VALIDATION_ERROR', 'UNAUTHORIZED') },
    },
  }, async (request) => ok(await blocks.remove(requireUser(request).id, request.params.userId)));
};
