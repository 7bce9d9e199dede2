import type { RouteHandlers, UiEvent } from '../../shared/contract.js';
import type { Engine } from '../engine.js';
import { errorMessage } from '../errors.js';
import { ChatController } from './chat.js';
import type { AppContext, AppSource } from './context.js';
import { EventHub, type UiEventListener } from './event-hub.js';
import { learningLogHandlers } from './learning-log.js';
import { memoryHandlers } from './memory.js';
import { memoryProtectionHandlers } from './memory-protection.js';
import { pendingHandlers } from './pending.js';
import { providerHandlers } from './providers.js';
import { safetyHandlers } from './safety.js';
import { sessionHandlers } from './sessions.js';
import { settingsHandlers } from './settings.js';
import { skillHandlers } from './skills.js';

export type ModelRoutes = 'models.list' | 'models.fit' | 'models.download' | 'models.pause' | 'models.resume' | 'models.cancel' | 'models.use';
export type ModelHandlers = Pick<RouteHandlers, ModelRoutes>;

export interface AppServiceOptions {
  source: AppSource;
  /** The model manager's routes (core/app/models.ts), built by whoever owns the downloads. */
  models: ModelHandlers;
  /** A UI listener that threw; default: a process warning. */
  onListenerError?: (err: unknown) => void;
  /** Join consecutive text/reasoning deltas for this long before sending (default one frame, 16 ms; 0: off). */
  deltaBatchMs?: number;
}

/** The engine side of the UI contract: what Electron main and the web server put behind `dispatch`. */
export interface AppService {
  handlers: RouteHandlers;
  onEvent(listener: UiEventListener): () => void;
  emit(event: UiEvent): void;
  /** Interrupts turns started through this service and stops events. The engine stays open: its owner disposes it. */
  dispose(): Promise<void>;
}

export function createAppService(engine: Engine, options: AppServiceOptions): AppService {
  const events = new EventHub(
    options.onListenerError ?? ((err) => process.emitWarning(`A UI event listener failed: ${errorMessage(err)}`)),
    options.deltaBatchMs,
  );
  const ctx: AppContext = { engine, source: options.source, events };
  const chat = new ChatController(ctx);
  const handlers: RouteHandlers = {
    ...chat.handlers(),
    ...sessionHandlers(ctx),
    ...skillHandlers(ctx),
    ...pendingHandlers(ctx),
    ...safetyHandlers(ctx),
    ...memoryHandlers(ctx),
    ...learningLogHandlers(ctx),
    ...memoryProtectionHandlers(ctx),
    ...settingsHandlers(ctx),
    ...providerHandlers(ctx),
    // Only the routes: a model manager may carry more (its own close), which is not a route.
    'models.list': options.models['models.list'],
    'models.fit': options.models['models.fit'],
    'models.download': options.models['models.download'],
    'models.pause': options.models['models.pause'],
    'models.resume': options.models['models.resume'],
    'models.cancel': options.models['models.cancel'],
    'models.use': options.models['models.use'],
  };
  let closing: Promise<void> | null = null;
  return {
    handlers,
    onEvent: (listener) => events.on(listener),
    emit: (event) => events.emit(event),
    dispose: () => {
      closing ??= chat.close().finally(() => events.close());
      return closing;
    },
  };
}
