import { createStore, type StoreApi } from 'zustand/vanilla';

export const VIEWS = ['chat', 'sessions', 'skills', 'memory', 'learning', 'models', 'settings'] as const;
export type ViewName = (typeof VIEWS)[number];

export interface NavState {
  view: ViewName;
  go(view: ViewName): void;
}

export type NavStore = StoreApi<NavState>;

export function createNavStore(): NavStore {
  return createStore<NavState>()((set) => ({ view: 'chat', go: (view) => set({ view }) }));
}
