import { createStore, type StoreApi } from 'zustand/vanilla';
import type { z } from 'zod';
import type { HearthApi, LanguageSetting, SettingsPatch, SettingsView, StatusView, ThemeSetting } from '../../shared/contract.js';
import { errorMessage } from '../api/api-error.js';

export type Language = z.infer<typeof LanguageSetting>;
export type Theme = z.infer<typeof ThemeSetting>;

export interface SettingsState {
  settings: z.infer<typeof SettingsView> | null;
  status: z.infer<typeof StatusView> | null;
  /** Known before settings load (from the browser), so the first paint is already in the right language. */
  language: Language;
  theme: Theme;
  error: string | null;
  load(): Promise<void>;
  refreshStatus(): Promise<void>;
  setStatus(status: z.infer<typeof StatusView>): void;
  update(patch: z.input<typeof SettingsPatch>): Promise<boolean>;
  /**
   * Sends the key to the keychain and keeps nothing of it: the only trace left in the renderer is the
   * provider's `hasKey`, read back from settings. The caller clears its input.
   */
  saveApiKey(provider: string, key: string): Promise<boolean>;
  deleteApiKey(provider: string): Promise<boolean>;
}

export type SettingsStore = StoreApi<SettingsState>;

export function browserLanguage(languages: readonly string[]): Language {
  return languages.some((l) => l.toLowerCase().startsWith('zh')) ? 'zh-CN' : 'en';
}

export function createSettingsStore(api: HearthApi, initialLanguage: Language = 'en'): SettingsStore {
  return createStore<SettingsState>()((set, get) => {
    const apply = (settings: z.infer<typeof SettingsView>) => set({ settings, language: settings.language, theme: settings.theme, error: null });
    const attempt = async (action: () => Promise<void>): Promise<boolean> => {
      try {
        await action();
        return true;
      } catch (error) {
        set({ error: errorMessage(error) });
        return false;
      }
    };
    return {
      settings: null,
      status: null,
      language: initialLanguage,
      theme: 'system',
      error: null,
      load: async () => {
        await attempt(async () => {
          const [settings, status] = await Promise.all([api.invoke('settings.get', {}), api.invoke('app.status', {})]);
          apply(settings);
          set({ status });
        });
      },
      refreshStatus: async () => {
        await attempt(async () => set({ status: await api.invoke('app.status', {}) }));
      },
      setStatus: (status) => set({ status }),
      update: (patch) => attempt(async () => apply(await api.invoke('settings.update', patch))),
      saveApiKey: async (provider, key) => {
        const stored = await attempt(async () => void (await api.invoke('secrets.setApiKey', { provider, key })));
        // Resolve as soon as the keychain has it, so the caller clears its input at once; `hasKey` (and
        // `needsSetup`) then come back from the engine, never from what was typed.
        if (stored) void get().load();
        return stored;
      },
      deleteApiKey: (provider) =>
        attempt(async () => {
          await api.invoke('secrets.deleteApiKey', { provider });
          apply(await api.invoke('settings.get', {}));
        }),
    };
  });
}
