import type { Engine } from '../engine.js';
import type { EventHub } from './event-hub.js';

/** Where a UI connects from; sessions it starts are stored with this source. */
export type AppSource = 'web' | 'desktop';

/** What every route group works over. */
export interface AppContext {
  engine: Engine;
  source: AppSource;
  events: EventHub;
}
