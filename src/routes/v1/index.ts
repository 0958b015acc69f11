import type { FastifyPluginAsync } from 'fastify';
import { authRoutes } from './auth/auth.routes.js';
import { userRoutes } from './users/users.routes.js';
import { verificationRoutes } from './verification/verification.routes.js';

/** Every /api/v1 route module, one line each. */
export const v1Routes: FastifyPluginAsync = async (app) => {
  await app.register(authRoutes);
  await app.register(userRoutes);
  await app.register(verificationRoutes);
};
