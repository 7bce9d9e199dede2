import { createContext, useContext, type ReactNode } from 'react';
import { useStore } from 'zustand';
import type { HearthApi } from '../../shared/contract.js';
import type { ConnectionState } from '../api/websocket-api.js';
import { createChatStore, type ChatStore } from '../chat/chat-store.js';
import { animationFrameScheduler } from '../chat/animation-frame-scheduler.js';
import type { FrameScheduler } from '../chat/frame-batcher.js';
import { createNavStore, type NavStore } from './nav-store.js';
import { createModelsStore, type ModelsStore } from '../models/models-store.js';
import { createSettingsStore, type Language, type SettingsStore } from '../settings/settings-store.js';

/** Everything a view needs, built once per window around one transport; tests build their own. */
export interface Services {
  api: HearthApi;
  chat: ChatStore;
  settings: SettingsStore;
  models: ModelsStore;
  nav: NavStore;
  /** Web mode only: the socket's state, for the connection banner. */
  connection?: { current(): ConnectionState; subscribe(listener: (state: ConnectionState) => void): () => void };
  /** Stops routing events into the stores. */
  dispose(): void;
}

export function createServices(
  api: HearthApi,
  options: { language?: Language; scheduler?: FrameScheduler; connection?: Services['connection'] } = {},
): Services {
  const chat = createChatStore(api, options.scheduler ?? animationFrameScheduler);
  const settings = createSettingsStore(api, options.language);
  const models = createModelsStore(api);
  const nav = createNavStore();
  const unsubscribe = api.onEvent((event) => {
    if (event.channel === 'agent') chat.getState().handleEvent(event);
    else if (event.channel === 'download') models.getState().downloadChanged(event.download);
    else settings.getState().setStatus(event.status);
  });
  return { api, chat, settings, models, nav, ...(options.connection ? { connection: options.connection } : {}), dispose: unsubscribe };
}

const ServicesContext = createContext<Services | null>(null);

export function ServicesProvider({ services, children }: { services: Services; children: ReactNode }) {
  return <ServicesContext.Provider value={services}>{children}</ServicesContext.Provider>;
}

export function useServices(): Services {
  const services = useContext(ServicesContext);
  if (!services) throw new Error('useServices outside ServicesProvider');
  return services;
}

type StateOf<S> = S extends { getState(): infer T } ? T : never;

export function useChat<T>(selector: (state: StateOf<ChatStore>) => T): T {
  return useStore(useServices().chat, selector);
}
export function useSettings<T>(selector: (state: StateOf<SettingsStore>) => T): T {
  return useStore(useServices().settings, selector);
}
export function useModels<T>(selector: (state: StateOf<ModelsStore>) => T): T {
  return useStore(useServices().models, selector);
}
export function useNav<T>(selector: (state: StateOf<NavStore>) => T): T {
  return useStore(useServices().nav, selector);
}
