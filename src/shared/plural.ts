/**
 * Counted nouns with the plural rules of a language (CLDR, through Intl.PluralRules), so no message says
 * "1 matches" and a language with other categories (Russian's few/many, Arabic's two) can be added without
 * new code. In src/shared because the engine and CLI (English text for the model and the terminal) and the
 * renderer's dictionaries (src/renderer/i18n) all use it (decision 0018).
 */

/** The forms of one word; `other` is required because every language has it (Chinese has only it). */
export type PluralForms = Partial<Record<Intl.LDMLPluralRule, string>> & { other: string };

const rules = new Map<string, Intl.PluralRules>();

/** The form `forms` gives for `count` in `locale`, falling back to `other` when that category has no form. */
export function pluralForm(locale: string, count: number, forms: PluralForms): string {
  let rule = rules.get(locale);
  if (rule === undefined) {
    rule = new Intl.PluralRules(locale);
    rules.set(locale, rule);
  }
  return forms[rule.select(count)] ?? forms.other;
}

/** English "1 match" / "3 matches": the count, a space, and the form for it. */
export function countOf(count: number, one: string, other: string): string {
  return `${count} ${pluralForm('en', count, { one, other })}`;
}
