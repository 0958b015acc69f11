import type { Deps } from '../deps.js';
import type { ListingStatus } from '../db/schema.js';
import { AppError } from '../errors.js';
import { cached } from '../infra/cache.js';
import { BROKER_STATS_SECONDS, type BrokerConfig, type BrokerListingsPage, type BrokerStats, type CreateBrokeredListingBody } from '../contracts/brokered-listings.js';
import type { Listing } from '../contracts/listings.js';
import type { AuthUser } from '../services/tokens.js';
import { checkBrokerClaim, type BrokerClaim } from './broker.js';
import { brokerNameIds, brokerPageAtOnce, brokerPageRows, brokerStats, countBrokerNames } from './brokered.repository.js';
import { toResultJson } from '../search/results.js';
import { ListingService } from './listings.service.js';
import { renamed, tokenClaim } from './orders.service.js';
import { checkClaims } from './validation.js';
import { pagedTotal, totalOfPage } from './status-parts.js';

/**
 * The reference's /brokered-listings: a brokered listing is a listing (ListingService.check and
 * place, the one path of every new order) whose order pays the named broker the named fee.
 */
export class BrokeredListingService {
  private readonly listings: ListingService;

  constructor(private readonly deps: Pick<Deps, 'cache' | 'config' | 'db' | 'jobs' | 'logger' | 'rpc'>) {
    this.listings = new ListingService(deps);
  }

  config(): BrokerConfig {
    const { minFeeBps, maxFeeBps } = this.deps.config.broker;
    return { minFeeBasisPoints: minFeeBps, minFeePercent: minFeeBps / 100, maxFeeBasisPoints: maxFeeBps, maxFeePercent: maxFeeBps / 100 };
  }

  /**
   * Checks the broker (not the seller, fee within the configured bounds), then the order as POST
   * /listings does plus its fee item (broker.ts), and stores it as a listing with its broker.
   */
  async create(user: AuthUser, body: CreateBrokeredListingBody): Promise<Listing> {
    const caller = user.address.toLowerCase();
    if (body.seller_address.toLowerCase() !== caller) throw new AppError('FORBIDDEN', 'seller_address must be the signed-in user\'s address', { field: 'body.seller_address' });
    const broker: BrokerClaim = { address: body.broker_address.toLowerCase(), feeBps: body.broker_fee_bps };
    checkBrokerClaim(broker, caller, this.deps.config);
    let id: number;
    try {
      const checked = await this.listings.check(caller, body.order_data, (f) => checkClaims(
        { token_id: body.token_id, price_wei: body.price_wei, currency_address: body.currency_address, order_hash: body.order_hash, expires_at: body.expires_at },
        { token_id: tokenClaim(body.token_id, f), price_wei: f.priceWei, currency_address: f.currencyAddress, order_hash: f.orderHash, expires_at: f.expiresAt },
      ), new Map(), broker);
      id = await this.listings.store(checked, body.source);
    } catch (err) {
      throw renamed(err, 'body');
    }
    return this.listings.get(id);
  }

  /**
   * A page of the names the broker has listings of, as global search shows names, each with the
   * broker's listings: the page's ids, then the names with those listings in one statement, and
   * beside it the total when the page does not tell it (totalOfPage).
   */
  async byBroker(address: string, status: ListingStatus | undefined, limit: number, offset: number): Promise<{ results: BrokerListingsPage['results']; total: number }> {
    const { db } = this.deps;
    const broker = address.toLowerCase();
    // counted exactly up to 1,000 names, a larger total cached 30 s (as the listings page does)
    const total = (rows: number) => totalOfPage(offset, limit, rows) ?? pagedTotal(this.deps.cache, `broker:${broker}:${status ?? 'all'}`, (cap) => countBrokerNames(db, broker, status, cap));
    const page = await brokerPageAtOnce(db, broker, status, limit, offset);
    if (page) return { results: page.map((row) => toResultJson(row, undefined)), total: await total(page.length) };
    const ids = await brokerNameIds(db, broker, status, limit, offset);
    const [counted, rows] = await Promise.all([total(ids.length), brokerPageRows(db, broker, status, ids)]);
    return { results: rows.map((row) => toResultJson(row, undefined)), total: counted };
  }

  /** Totals over every brokered listing, summed again at most every BROKER_STATS_SECONDS. */
  async stats(): Promise<BrokerStats> {
    return cached(this.deps.cache, 'broker:stats', BROKER_STATS_SECONDS, async () => {
      const row = await brokerStats(this.deps.db);
      return {
        activeBrokeredListings: Number(row.active),
        soldBrokeredListings: Number(row.sold),
        uniqueBrokers: Number(row.brokers),
        averageBrokerFeeBps: row.avg_fee_bps === null ? null : Number(row.avg_fee_bps),
      };
    });
  }
}
