/**
 * Every kind of notification the service writes, as the reference spells it (snake_case), one per
 * line: a new kind is one more line here (and its writer). The original web app spells the same
 * kinds in kebab-case (`offer-received`); input filters take either spelling.
 */
export const NOTIFICATION_TYPES = [
  'offer_received',
  'offer_accepted',
  'offer_rejected',
  'offer_updated',
  'offer_expired',
  'listing_sold',
  'listing_expired',
  'listing_unfunded',
  // to the watchers of a name (the web app's new-listing, price-change, sale, new-offer)
  'new_listing',
  'price_change',
  'sale',
  'new_offer',
  // expiry alerts to the owner and the watchers of a name (src/lifecycle)
  'name_expiring_30d',
  'name_expiring_7d',
  'name_grace_started',
  'name_premium_started',
  'name_premium_below',
] as const;

export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

const KNOWN = new Set<string>(NOTIFICATION_TYPES);

/** The stored (reference) spelling of a type given in either spelling, or undefined when it is no type. */
export function notificationTypeOf(input: string): NotificationType | undefined {
  const snake = input.trim().toLowerCase().replace(/-/g, '_');
  return KNOWN.has(snake) ? (snake as NotificationType) : undefined;
}

/** The web app's spelling of a type. */
export function kebabTypeOf(type: NotificationType): string {
  return type.replace(/_/g, '-');
}
