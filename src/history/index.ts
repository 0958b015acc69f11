/**
 * Market history: the activity log and what reads it (names, sales, activity, the feed), and the
 * name page view counter. Other modules write the log only through `recordActivity`, inside the
 * transaction of the change that causes the event.
 */
export { ACTIVITY_EVENT_TYPES, recordActivity, type ActivityEventType, type ActivityInput } from './activity.js';
export { ActivityService, type ActivityQuery, type ActivityPage } from './activity.service.js';
export { SalesService, type SalesPage } from './sales.service.js';
export { NamesService, type NamesQuery, type Viewer } from './names.service.js';
export { rebuildViewerCounts, userViewer, viewCounterOf } from './views.js';
export { resolveName, type NameRef } from './name-ref.js';
export { logNameTransitions, type TransitionResult } from './transitions.js';
export { nameTransitionsJob } from './jobs.js';
