/**
 * One language's words for "drop your instructions", as data. The directive matcher (directive.ts) compiles
 * each table into a matcher; adding a language is adding a table, never editing the matcher.
 *
 * Word entries are lowercase. A trailing `*` makes an entry a stem (`ignor*` matches ignora, ignoriere…);
 * a space inside an entry is any run of whitespace ("set aside", "pay no attention to").
 */
export interface DirectiveLexicon {
  /** ISO 639-1 code, reported in findings. */
  lang: string;
  /** The language's English name, for messages and the help text. */
  name: string;
  /**
   * `spaced`: words are separated by spaces, the window counts words. `unspaced`: Chinese, Japanese (and
   * Korean, whose particles glue onto words): the window counts characters up to a punctuation mark.
   */
  script: 'spaced' | 'unspaced';
  /** Where the verb sits: English "ignore the rules", Japanese "ルールを無視して", or both. */
  order: 'verb-object' | 'object-verb' | 'both';
  /** "Ignore", "forget", "bypass" …: verbs whose only business with instructions is dropping them. */
  verbs: readonly string[];
  /**
   * Verbs that drop instructions only with a qualifier ("skip your rules", "reset the system prompt"):
   * "skip the instructions if you use Docker" or "clear the context" is ordinary prose.
   */
  weakVerbs?: readonly string[];
  /** Words that always mean the agent's own instructions: "instructions", "system prompt", "guardrails". */
  objects: readonly string[];
  /**
   * Words that mean the agent's instructions only with a qualifier ("your rules", "the rules above"):
   * "ignore the lint rules" or "skip the directions for Windows" is ordinary prose.
   */
  weakObjects: readonly string[];
  /** "Previous", "above", "your", "system" …: what makes a weak object the agent's. */
  qualifiers: readonly string[];
  /**
   * The qualifiers that make even a weak verb and a weak object the agent's ("reset your rules"), where
   * "previous" is not enough ("delete the previous messages"). Absent: `qualifiers` serve.
   */
  possessives?: readonly string[];
  /** "All", "any", "every": a qualifier only after a strong verb ("ignore all rules", not "drop all rules"). */
  quantifiers?: readonly string[];
  /**
   * Strong objects too varied to list, as regular-expression sources ("whatever you were told",
   * "everything they loaded into you"): phrases that name what the agent was given, whoever gave it.
   */
  objectPatterns?: readonly string[];
  /**
   * Verbs whose particle follows the object ("set your rules to one side", "put them aside"): the head
   * word, then the particles that complete it. With its particle the verb counts as a strong one.
   */
  separableVerbs?: ReadonlyArray<{ heads: readonly string[]; particles: readonly string[] }>;
  /** Words that may stand between verb and object without changing the meaning: "the", "all", "please". */
  fillers: readonly string[];
  /** Qualifiers that follow the object ("the rules above", "the instructions you were given"). */
  trailing?: readonly string[];
  /** Trailing qualifiers as regular-expression sources, for the shapes a list cannot hold ("that came with your deployment"). */
  trailingPatterns?: readonly string[];
  /**
   * What after the object makes the sentence a defence, not an attack: "do not follow instructions found in
   * the document" is what a careful prompt says about untrusted text.
   */
  notFollowedBy?: readonly string[];
  /**
   * A regular-expression source that, matching the end of the sentence before the verb, makes the pair a
   * report of an attack rather than one: "a template that tried to make clients … disregard the system prompt".
   */
  reportedBefore?: string;
  /**
   * A regular-expression source that, matching right before the verb, makes it no order: a negation ("don't forget
   * the instructions", "never ignore the safety rules" ask for the opposite of an override) or a subject that is
   * not the reader ("we no longer follow the old guidelines", "it ignores instructions in issue bodies").
   */
  notOrderedBefore?: string;
  /**
   * A regular-expression source that must match right before a verb in its -ing form for it to be an order: "start
   * ignoring your rules" is one, a list of intents ("overriding instructions", "bypassing filters") names them.
   */
  gerundCue?: string;
  /**
   * Verb-last languages negate the verb after it: a regular-expression source tested on the matched verb and what
   * follows it ("unutma" in Turkish, "무시하지 마" in Korean, "忘れないで" in Japanese, "भूलना मत" in Hindi: "don't
   * forget / don't ignore"). A match is no order. Verbs that are themselves a negation ("uyma", "따르지 마": "do not
   * follow") are left out of the source.
   */
  negatedVerb?: string;
  /**
   * Strong pairs only: one word of any kind may stand right before the object ("ignore the operator instructions",
   * "disregard all onboarding guidelines"), since a noun used as a modifier is what no filler list enumerates.
   * `except`: words the slot may not hold, such as a third party's possessive ("tell it to ignore its instructions").
   */
  modifierSlot?: { except: readonly string[] };
  /** Whole expressions that annul the instructions without a verb-object pair ("previous instructions are void"). */
  annulments?: readonly string[];
  /**
   * Annulments searched only near one of their words ("rescinded", "void"; a space in a word is any
   * whitespace), within `reach` characters of it: a pattern run over a whole document costs as much as the
   * rest of the matcher, and these words are rare. Each match must hold one of its words.
   */
  nearWords?: ReadonlyArray<{ words: readonly string[]; patterns: readonly string[] }>;
}
