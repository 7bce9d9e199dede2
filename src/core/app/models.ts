/**
 * The `models.*` routes: model files on disk, the curated list, fit estimates, downloads, and choosing
 * the model to use. Download progress reaches every UI as `{channel: 'download'}` events.
 */
import { statSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import type { HearthConfig } from '../config/schema.js';
import { errorMessage, HearthError } from '../errors.js';
import type { RouteHandlers, UiEvent } from '../../shared/contract.js';
import { CURATED_MODELS } from '../model-files/curated-models.js';
import { estimateModelFit, thisMachine, type GpuMemory } from '../model-files/fit-estimate.js';
import { ggufHeaderProblem } from '../local-model/gguf-file.js';
import { ModelDownloads } from '../model-files/model-downloads.js';
import { modelSizeOf, type SizeOrigin } from '../model-files/model-size.js';
import { parseModelSource } from '../model-files/model-source.js';
import { listModelFiles, modelsFolder } from '../model-files/models-folder.js';

export interface ModelHandlersContext {
  home: string;
  config: HearthConfig;
  env: NodeJS.ProcessEnv;
  emit(event: UiEvent): void;
  /** Makes `path` the default model (the lead wires it to `model.default` in config.yaml). */
  useModel(path: string): Promise<void>;
  /** Free and total video memory, asked of the model host; absent or null means estimate for the CPU. */
  gpuMemory?: () => Promise<GpuMemory | null>;
}

type ModelRoutes = 'models.list' | 'models.fit' | 'models.download' | 'models.pause' | 'models.resume' | 'models.cancel' | 'models.use';

const SIZE_ORIGIN_TEXT: Record<SizeOrigin, string> = {
  given: 'size as given',
  server: 'size from the server',
  curated: 'approximate size: the server could not be reached',
  local: 'size of the file on disk',
};

export function createModelHandlers(ctx: ModelHandlersContext): Pick<RouteHandlers, ModelRoutes> & { close(): Promise<void> } {
  const folder = modelsFolder(ctx.home);
  const downloads = new ModelDownloads({ folder, env: ctx.env, onChange: (download) => ctx.emit({ channel: 'download', download }) });

  return {
    'models.list': async () => ({
      files: listModelFiles(folder),
      curated: CURATED_MODELS.map(({ id, label, description, source, sizeBytes, sha256 }) => ({ id, label, description, source, sizeBytes, sha256 })),
      downloads: downloads.list(),
    }),

    'models.fit': async ({ source, sizeBytes }) => {
      const parsed = parseModelSource(source, { env: ctx.env });
      const size = await modelSizeOf(parsed, { sizeBytes });
      const gpu = ctx.config.local.gpu === false ? null : ((await ctx.gpuMemory?.()) ?? null);
      const location = parsed.kind === 'local' ? parsed.path : parsed.url;
      const fit = await estimateModelFit({ location, fileBytes: size.sizeBytes, contextTokens: ctx.config.local.context_size, machine: thisMachine(gpu) });
      return { ...fit, detail: `${fit.detail} (${SIZE_ORIGIN_TEXT[size.origin]})` };
    },

    'models.download': async ({ source, sha256 }) => downloads.start({ source, sha256 }),
    'models.pause': async ({ id }) => downloads.pause(id),
    'models.resume': async ({ id }) => downloads.resume(id),
    'models.cancel': async ({ id }) => downloads.cancel(id),

    'models.use': async ({ path }) => {
      await ctx.useModel(await usableModelPath(path, folder));
      return { ok: true as const };
    },

    close: () => downloads.close(),
  };
}

/**
 * A relative path names a file in the models folder (and may not climb out of it); an absolute path may
 * be anywhere, since the user chose it. Either way it must be an existing GGUF file, checked here so a
 * wrong choice is refused now rather than failing at the next message.
 */
async function usableModelPath(path: string, folder: string): Promise<string> {
  const absolute = isAbsolute(path) ? path : resolve(folder, path);
  if (!isAbsolute(path)) {
    const inside = relative(folder, absolute);
    if (inside === '' || inside.startsWith('..') || isAbsolute(inside)) {
      throw new HearthError('model_source_invalid', `"${path}" is outside the models folder ${folder}. Give a file name in it, or an absolute path.`);
    }
  }
  if (!/\.gguf$/i.test(absolute)) throw new HearthError('model_source_invalid', `${absolute} is not a .gguf file.`);
  const stat = statSync(absolute, { throwIfNoEntry: false });
  if (!stat?.isFile()) throw new HearthError('model_source_invalid', `${absolute} does not exist or is not a file.`);
  let problem: string | null;
  try {
    problem = await ggufHeaderProblem(absolute);
  } catch (err) {
    throw new HearthError('model_source_invalid', `Cannot read ${absolute}: ${errorMessage(err)}`, { cause: err });
  }
  if (problem) throw new HearthError('model_source_invalid', `${absolute} cannot be used: ${problem}.`);
  return absolute;
}
