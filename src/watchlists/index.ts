/**
 * The watchlist domain's door: named lists and their entries (one writer, store.ts), the watcher
 * counts of names and the `watchlist` trend counter they keep, and reads of a user's entries.
 */
export { WatchlistService, prefsOf } from './watchlist.service.js';
export { entriesOf, type EntryRow } from './reads.js';
export { DEFAULT_LIST_NAME, type ItemPrefs } from './store.js';
