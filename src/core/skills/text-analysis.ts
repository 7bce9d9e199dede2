/**
 * Words for skill matching: NFKC, camelCase and `-_./` split, lowercase, stop words removed, a light
 * Porter-style stemmer (plurals, -ing/-ed/-ment/-ation…), and for queries a small thesaurus of everyday
 * technical synonyms and abbreviations ("db" ~ "database", "k8s" ~ "kubernetes"). The thesaurus is general
 * vocabulary, not a list of skills: it helps a user who says "snapshot" find a skill that says "backup".
 */

const STOP_WORDS = new Set(
  `a about above after again all also am an and any are as at be because been before being below between both but by can could
did do does doing done down during each either else etc ever every few for from further get gets getting go going got had has have
having he her here hers him his how i if in into is it its itself just let lets like make me might more most much must my myself
need needs no nor not now of off on once only or other our ours out over own please same she should so some such than thank thanks
that the their them then there these they this those through to too under until up us use used uses using very via want wanted
wants was way we were what whatever when where whether which while who whom why will with would yes yet you your yours
skill skills user asks ask asked help hey hi ok okay really something thing things stuff sure able asap quick question
across along among around behind beyond since toward towards upon within without onto per whose however although though unless
anyone anything everyone everything someone somebody maybe perhaps already always often still soon even almost quite rather`.split(/\s+/),
);

/** Groups of words a user treats as the same thing. Stemmed at load, so "databases" matches "db". */
const SYNONYM_GROUPS = `db database databases | repo repository | k8s kubernetes | config configuration settings setup |
env environment | auth authentication login signin sso | creds credentials secrets password passwords | docs documentation readme |
deploy deployment release ship rollout | bug defect crash error | backup snapshot dump | restore recover recovery |
slow performance latency speed optimize tune | email mail inbox | image picture photo photos screenshot | video clip footage |
translate translation localize localization i18n | schedule cron recurring timer | summarize summary tldr recap digest |
chart graph plot visualize dashboard | spreadsheet excel xlsx csv sheet | invoice bill billing | meeting standup call |
upgrade update bump | delete remove purge | cert certificate tls ssl https | log logs logging | monitor alert alerting alarm uptime |
container docker | server host machine vm instance | cost spend spending budget expenses | migrate migration port move |
refactor restructure cleanup | lint linter format formatter style | dependency dependencies package packages library deps |
vulnerability vulnerabilities cve security exploit | transcribe transcript transcription speech dictation | song music audio sound |
recipe recipes cook cooking meal | workout exercise fitness training | travel trip trips flight itinerary holiday vacation | resume cv |
test tests testing spec unittest | scrape scraping crawl crawler | api endpoint endpoints | message chat slack | note notes notebook journal |
pdf pdfs document documents | diagram flowchart | sql query queries | commit commits git | branch branches | ci pipeline pipelines |
py python | ts typescript | js javascript nodejs | golang go | md markdown | rb ruby | tf terraform iac infrastructure |
pg postgres postgresql | mongo mongodb | wp wordpress | otel opentelemetry | bq bigquery | gh github | gcal calendar |
mac macbook laptop | merge combine join stitch concatenate | check verify validate | track record progress history |
plan planning organize | holiday vacation | publish distribute | ram memory oom leak |
harden hardening secure | website site webpage homepage | offline unavailable unreachable disconnected | cheap inexpensive affordable`
  .split('|')
  .map((group) => group.trim().split(/\s+/));

/** Weight of a query word reached only through the thesaurus, relative to a word the user typed. */
const SYNONYM_WEIGHT = 0.5;

let synonymIndex: Map<string, Set<string>> | undefined;

function synonyms(): Map<string, Set<string>> {
  if (synonymIndex !== undefined) return synonymIndex;
  synonymIndex = new Map();
  for (const group of SYNONYM_GROUPS) {
    const stems = [...new Set(group.map((word) => stem(word)))];
    for (const word of stems) {
      const set = synonymIndex.get(word) ?? new Set<string>();
      for (const other of stems) if (other !== word) set.add(other);
      synonymIndex.set(word, set);
    }
  }
  return synonymIndex;
}

/** Raw words: letters and digits, split at camelCase humps and at every other character. */
export function tokenize(text: string): string[] {
  return text
    .normalize('NFKC')
    .replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0);
}

/** Stemmed content words of a field, in order, repeats kept (term frequency matters). */
export function analyze(text: string): string[] {
  const words: string[] = [];
  for (const word of tokenize(text)) {
    if (STOP_WORDS.has(word)) continue;
    words.push(stem(word));
  }
  return words;
}

export interface QueryTerm {
  term: string;
  weight: number;
}

/** Unique query words with weights: 1 for what the user typed, less for thesaurus expansions. */
export function analyzeQuery(query: string, options: { expandSynonyms?: boolean } = {}): QueryTerm[] {
  const weights = new Map<string, number>();
  for (const term of analyze(query)) weights.set(term, 1);
  if (options.expandSynonyms === false) return [...weights].map(([term, weight]) => ({ term, weight }));
  for (const term of [...weights.keys()]) {
    for (const related of synonyms().get(term) ?? []) {
      if (!weights.has(related)) weights.set(related, SYNONYM_WEIGHT);
    }
  }
  return [...weights].map(([term, weight]) => ({ term, weight }));
}

const VOWEL = /[aeiouy]/;

/**
 * A light suffix stripper in the spirit of Porter's step 1 and 5: enough to meet "deploying", "deployed",
 * "deployment" and "deploys" at one stem, without the full algorithm's over-stemming of short words.
 */
export function stem(word: string): string {
  if (word.length <= 3 || !/^[a-z]+$/.test(word)) return word;
  const known = stemCache.get(word);
  if (known !== undefined) return known;
  const result = stripSuffixes(word);
  // Bounded: a library's vocabulary is a few thousand words, but queries can bring any number of new ones.
  if (stemCache.size >= STEM_CACHE_LIMIT) stemCache.clear();
  stemCache.set(word, result);
  return result;
}

/** Skill texts repeat the same words across hundreds of skills, so each index build would stem them again. */
const stemCache = new Map<string, string>();
const STEM_CACHE_LIMIT = 50_000;

const SUFFIXES: [string, string][] = [
  ['ization', 'ize'],
  ['ational', 'ate'],
  ['ation', 'ate'],
  ['ments', ''],
  ['ment', ''],
  ['ing', ''],
  ['ed', ''],
  ['izer', 'ize'],
];

function stripSuffixes(word: string): string {
  let w = word;
  if (w.endsWith('ies') && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (w.endsWith('s') && !w.endsWith('ss') && !w.endsWith('us') && !w.endsWith('is')) w = w.slice(0, -1);

  for (const [suffix, replacement] of SUFFIXES) {
    if (!w.endsWith(suffix)) continue;
    if (suffix === 'ed' && w.endsWith('eed')) break; // "speed", "need": not a past tense
    const base = w.slice(0, -suffix.length);
    // Only strip when a real stem with a vowel is left ("bring" and "shed" stay whole).
    if (base.length < 3 || !VOWEL.test(base)) continue;
    w = base + replacement;
    // running → run, stopped → stop; but "adding" stays at "add" like "add" itself.
    if (replacement === '' && w.length >= 4 && /([^aeiouslz])\1$/.test(w)) w = w.slice(0, -1);
    break;
  }
  // Porter step 5: drop a final "e" so "create", "created" and "creating" agree.
  if (w.endsWith('e') && w.length > 3) w = w.slice(0, -1);
  return w;
}
