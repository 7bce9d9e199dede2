import { CHINESE_SIMPLIFIED, CHINESE_TRADITIONAL, JAPANESE, KOREAN } from './cjk.js';
import { ENGLISH } from './en.js';
import { DUTCH, FRENCH, GERMAN, ITALIAN, POLISH, PORTUGUESE, RUSSIAN, SPANISH, SWEDISH, UKRAINIAN } from './european.js';
import { ARABIC, HINDI, INDONESIAN, PERSIAN, TURKISH, VIETNAMESE } from './other.js';
import type { DirectiveLexicon } from './types.js';

/** Every language the directive matcher reads; the help text of `hearth scan` lists them from here. */
export const LEXICONS: readonly DirectiveLexicon[] = [
  ENGLISH, CHINESE_SIMPLIFIED, CHINESE_TRADITIONAL, JAPANESE, KOREAN, SPANISH, FRENCH, GERMAN, ITALIAN, PORTUGUESE, DUTCH,
  SWEDISH, POLISH, RUSSIAN, UKRAINIAN, ARABIC, HINDI, PERSIAN, TURKISH, VIETNAMESE, INDONESIAN,
];

export function languageNames(): string[] {
  return [...new Set(LEXICONS.map((l) => l.name.replace(/ \(.*\)$/, '')))];
}
