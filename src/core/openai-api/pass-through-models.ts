import type { ConfigService } from '../config/config-service.js';
import type { HearthConfig } from '../config/schema.js';
import type { ModelsService } from '../engine/models-service.js';
import { errorMessage } from '../errors.js';
import type { ChatModel } from '../llm/types.js';
import { ApiError } from './wire.js';

/**
 * The configured models a client may call by id (`model.default`, then `model.fallbacks`, as config.yaml names
 * them: `provider:name`). Each is built on first use as a chain of that one model (no fallbacks: the client
 * asked for this model), with the engine's keys and hosts, kept while config.yaml's model settings stay the same,
 * and disposed when they change or the API stops. A local GGUF called this way loads in its own model host.
 */
export class PassThroughModels {
  private readonly built = new Map<string, ChatModel>();
  private readonly unsubscribe: () => void;

  constructor(
    private readonly config: ConfigService,
    private readonly models: Pick<ModelsService, 'createChain'>,
    private readonly log: (line: string) => void,
  ) {
    this.unsubscribe = config.onChange((next, previous) => {
      if (JSON.stringify(modelSettings(next)) !== JSON.stringify(modelSettings(previous))) this.release();
    });
  }

  ids(): string[] {
    const { model } = this.config.current();
    return [...new Set([model.default, ...model.fallbacks])];
  }

  get(id: string): ChatModel {
    const ready = this.built.get(id);
    if (ready !== undefined) return ready;
    if (!this.ids().includes(id)) {
      throw new ApiError(404, 'invalid_request_error', 'model_not_found', `The model "${id}" does not exist here. Models: hearth-agent, ${this.ids().join(', ')} (GET /v1/models lists them).`);
    }
    const current = this.config.current();
    const model = this.models.createChain({ ...current, model: { ...current.model, fallbacks: [] } }, { model: id });
    this.built.set(id, model);
    return model;
  }

  async dispose(): Promise<void> {
    this.unsubscribe();
    await this.release();
  }

  private async release(): Promise<void> {
    const models = [...this.built.values()];
    this.built.clear();
    for (const model of models) {
      try {
        await model.dispose?.();
      } catch (err) {
        this.log(`A passed-through model did not close cleanly: ${errorMessage(err)}`);
      }
    }
  }
}

/** What a passed-through model is built from: the chain's ids, the providers and the local runtime. */
function modelSettings(config: HearthConfig): unknown {
  return { model: config.model, providers: config.providers, local: config.local };
}
