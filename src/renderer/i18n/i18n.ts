import { useCallback } from 'react';
import { useSettings } from '../app/services.js';
import type { Language } from '../settings/settings-store.js';
import { en, type MessageKey } from './en.js';
import { zhCN } from './zh-CN.js';

export type { MessageKey };
export type Params = Record<string, string | number>;

export const dictionaries: Record<Language, Record<MessageKey, string>> = { en, 'zh-CN': zhCN };

/** `{name}` placeholders are filled from params; an unknown placeholder stays visible rather than vanishing. */
export function translate(language: Language, key: MessageKey, params?: Params): string {
  const text = dictionaries[language][key];
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

export type Translate = (key: MessageKey, params?: Params) => string;

/** The translator for the language in settings; components re-render when it changes. */
export function useT(): Translate {
  const language = useSettings((s) => s.language);
  return useCallback((key: MessageKey, params?: Params) => translate(language, key, params), [language]);
}
