import type { FastifyPluginAsync } from 'fastify';
import { aiRoutes } from './ai/ai.routes.js';
import { authRoutes } from './auth/auth.routes.js';
import { cartRoutes } from './cart/cart.routes.js';
import { listingRoutes } from './listings/listings.routes.js';
import { offerRoutes } from './offers/offers.routes.js';
import { awardsRoutes } from './awards/awards.routes.js';
import { clubsRoutes } from './clubs/clubs.routes.js';
import { googleMetricsRoutes } from './google-metrics/google-metrics.routes.js';
import { leaderboardRoutes } from './leaderboard/leaderboard.routes.js';
import { legendsRoutes } from './legends/legends.routes.js';
import { searchRoutes } from './search/search.routes.js';
import { subgraphRoutes } from './subgraph/subgraph.routes.js';
import { userRoutes } from './users/users.routes.js';
import { notificationRoutes } from './notifications/notifications.routes.js';
import { trendingRoutes } from './trending/trending.routes.js';
import { verificationRoutes } from './verification/verification.routes.js';
import { voteRoutes } from './votes/votes.routes.js';

/** Every /api/v1 route module, one line each. */
export const v1Routes: FastifyPluginAsync = async (app) => {
  await app.register(authRoutes);
  await app.register(userRoutes);
  await app.register(listingRoutes);
  await app.register(offerRoutes);
  await app.register(cartRoutes);
  await app.register(verificationRoutes);
  await app.register(voteRoutes);
  await app.register(trendingRoutes);
  await app.register(notificationRoutes);
  await app.register(clubsRoutes);
  await app.register(leaderboardRoutes);
  await app.register(awardsRoutes);
  await app.register(legendsRoutes);
  await app.register(subgraphRoutes);
  await app.register(searchRoutes);
  await app.register(aiRoutes);
  await app.register(googleMetricsRoutes);
};
