import type { Deps } from '../deps.js';
import type { ListingStatus } from '../db/schema.js';
import { BrokeredListingService } from '../orders/index.js';
import { offsetOf, pageB } from '../lib/pagination.js';
import type { BrokerConfig, BrokerListingsPage, BrokerListingsQuery, BrokerStats, CreateBrokeredListingBody } from '../contracts/brokered-listings.js';
import type { Listing } from '../contracts/listings.js';
import type { AuthUser } from './tokens.js';

/** GET/POST /brokered-listings: the orders door's brokered listings, with names shown as global search shows them. */
export class BrokeredListingsService {
  private readonly brokered: BrokeredListingService;

  constructor(private readonly deps: Pick<Deps, 'cache' | 'config' | 'db' | 'jobs' | 'logger' | 'rpc'>) {
    this.brokered = new BrokeredListingService(deps);
  }

  config(): BrokerConfig {
    return this.brokered.config();
  }

  create(user: AuthUser, body: CreateBrokeredListingBody): Promise<Listing> {
    return this.brokered.create(user, body);
  }

  async byBroker(address: string, q: BrokerListingsQuery): Promise<BrokerListingsPage> {
    const page = await this.brokered.byBroker(address, q.status as ListingStatus | undefined, q.limit, offsetOf(q.page, q.limit));
    return { results: page.results, pagination: pageB(q.page, q.limit, page.total) };
  }

  stats(): Promise<BrokerStats> {
    return this.brokered.stats();
  }
}
