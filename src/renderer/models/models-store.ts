import { createStore, type StoreApi } from 'zustand/vanilla';
import type { CuratedModel, DownloadView, FitEstimate, HearthApi, ModelFileView } from '../../shared/contract.js';
import type { z } from 'zod';
import { errorMessage } from '../api/api-error.js';

type Download = z.infer<typeof DownloadView>;

export interface ModelsState {
  files: z.infer<typeof ModelFileView>[];
  curated: z.infer<typeof CuratedModel>[];
  /** By id, in the order they were first seen. */
  downloads: Record<string, Download>;
  fit: { source: string; estimate: z.infer<typeof FitEstimate> } | null;
  error: string | null;
  load(): Promise<void>;
  estimateFit(source: string, sizeBytes?: number): Promise<void>;
  download(source: string, sha256?: string): Promise<void>;
  control(action: 'pause' | 'resume' | 'cancel', id: string): Promise<void>;
  use(path: string): Promise<boolean>;
  /** A `{channel:'download'}` event. */
  downloadChanged(download: Download): void;
}

export type ModelsStore = StoreApi<ModelsState>;

export function createModelsStore(api: HearthApi): ModelsStore {
  return createStore<ModelsState>()((set, get) => {
    const attempt = async (action: () => Promise<void>): Promise<boolean> => {
      try {
        await action();
        set({ error: null });
        return true;
      } catch (error) {
        set({ error: errorMessage(error) });
        return false;
      }
    };
    const upsert = (download: Download) => {
      set({ downloads: { ...get().downloads, [download.id]: download } });
      // A finished download is a new file: list it so "use this model" can pick it.
      if (download.state === 'done') void get().load();
    };
    return {
      files: [],
      curated: [],
      downloads: {},
      fit: null,
      error: null,
      load: async () => {
        await attempt(async () => {
          const list = await api.invoke('models.list', {});
          const downloads = { ...get().downloads };
          for (const d of list.downloads) downloads[d.id] = d;
          set({ files: list.files, curated: list.curated, downloads });
        });
      },
      estimateFit: async (source, sizeBytes) => {
        await attempt(async () => {
          const estimate = await api.invoke('models.fit', sizeBytes === undefined ? { source } : { source, sizeBytes });
          set({ fit: { source, estimate } });
        });
      },
      download: async (source, sha256) => {
        await attempt(async () => upsert(await api.invoke('models.download', sha256 ? { source, sha256 } : { source })));
      },
      control: async (action, id) => {
        await attempt(async () => upsert(await api.invoke(`models.${action}`, { id })));
      },
      use: (path) => attempt(async () => void (await api.invoke('models.use', { path }))),
      downloadChanged: upsert,
    };
  });
}
