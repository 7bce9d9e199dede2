import type { z } from 'zod';
import type { CuratedModel } from '../../shared/contract.js';
import type { Language } from '../settings/settings-store.js';

/**
 * A curated model's description in the UI's language. The engine sends every language (the list is data in
 * core, not a string table here), so switching the language needs no reload; English stands in for a language
 * an older engine did not send.
 */
export function curatedDescription(model: Pick<z.infer<typeof CuratedModel>, 'description'>, language: Language): string {
  return model.description[language] ?? model.description.en;
}
