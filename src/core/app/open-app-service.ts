import type { Engine } from '../engine.js';
import type { AppSource } from './context.js';
import { createModelHandlers } from './models.js';
import { createAppService, type AppService } from './service.js';

/**
 * The app service with its model manager, as both surfaces (Electron main and `hearth serve`) run it. The
 * models' download progress goes out through the service, which needs the model routes first: hence the
 * late binding. `dispose()` stops turns, then pauses downloads (their .part files are kept for resume).
 */
export function openAppService(engine: Engine, options: { source: AppSource; env: NodeJS.ProcessEnv; gpuMemory?: () => Promise<{ totalBytes: number; freeBytes: number } | null> }): AppService {
  let service: AppService | null = null;
  const models = createModelHandlers({
    home: engine.home,
    // Read at each call: a context size changed in settings or by hand applies to the next fit estimate.
    get config() {
      return engine.config.current();
    },
    env: options.env,
    emit: (event) => service?.emit(event),
    ...(options.gpuMemory ? { gpuMemory: options.gpuMemory } : {}),
    useModel: async (path) => {
      // The one read-modify-write keeps an edit made meanwhile; the model service reloads the chain on the change,
      // so the next message goes to the new model.
      const spec = `local:${path}`;
      const before = engine.config.current().model.default;
      await engine.config.update((draft) => {
        draft.model.default = spec;
      });
      // Already the default (its file was missing, or was just downloaded again): no change to hear, so rebuild here.
      if (before === spec) await engine.models.reload();
    },
  });
  const app = createAppService(engine, { source: options.source, models });
  service = app;
  let closing: Promise<void> | null = null;
  return {
    ...app,
    dispose: () => {
      closing ??= app.dispose().finally(() => models.close());
      return closing;
    },
  };
}
