import { useCallback } from 'react';
import { useSettings } from '../app/services.js';
import type { Language } from '../settings/settings-store.js';
import { pluralForm, type PluralForms } from '../../shared/plural.js';
import { en, type MessageKey } from './en.js';
import { zhCN } from './zh-CN.js';

export type { MessageKey };
export type Params = Record<string, string | number>;

export const dictionaries: Record<Language, Record<MessageKey, string>> = { en, 'zh-CN': zhCN };

/** `{count, plural, one {# match} other {# matches}}`: the ICU MessageFormat plural, with `#` for the number. */
const PLURAL = /\{(\w+), plural,((?:\s*[a-z]+ \{[^{}]*\})+)\s*\}/g;
const PLURAL_FORM = /([a-z]+) \{([^{}]*)\}/g;

/**
 * `{name}` placeholders are filled from params; an unknown placeholder stays visible rather than vanishing.
 * A plural placeholder picks its form by the language's plural rules (shared/plural.ts); without its number it
 * shows the `other` form with the placeholder visible ("{count} matches").
 */
export function translate(language: Language, key: MessageKey, params: Params = {}): string {
  const text = dictionaries[language][key].replace(PLURAL, (_whole, name: string, body: string) => {
    const forms: PluralForms = { other: '#' };
    for (const [, category, form] of body.matchAll(PLURAL_FORM)) forms[category as Intl.LDMLPluralRule] = form as string;
    const value = params[name];
    if (typeof value !== 'number') return forms.other.replaceAll('#', `{${name}}`);
    return pluralForm(language, value, forms).replaceAll('#', String(value));
  });
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

export type Translate = (key: MessageKey, params?: Params) => string;

/** The translator for the language in settings; components re-render when it changes. */
export function useT(): Translate {
  const language = useSettings((s) => s.language);
  return useCallback((key: MessageKey, params?: Params) => translate(language, key, params), [language]);
}

/** Dates and times in the app's language (not the browser's): "3 Dec 2026, 14:05" / "2026年12月3日 14:05". */
export function formatDate(language: Language, at: number | string | Date): string {
  return new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(at));
}

export function useFormatDate(): (at: number | string | Date) => string {
  const language = useSettings((s) => s.language);
  return useCallback((at: number | string | Date) => formatDate(language, at), [language]);
}

/** A word the engine records (an approval decision, a session origin) in the app's language, or as recorded when unknown. */
export function translateRecorded(t: Translate, prefix: 'decision' | 'origin', value: string): string {
  const key = `${prefix}.${value}`;
  return key in en ? t(key as MessageKey) : value;
}
