/**
 * Query expansion whose knowledge comes only from the skill library, never from a hand-written list:
 * pseudo-relevance feedback in the spirit of RM3 (Lavrenko & Croft's relevance model, interpolated with the
 * original query). The skills a first pass ranks highest are assumed to be about the request; the words that
 * make them distinctive (high idf in their name, tags and description) are added to the query at a small
 * weight and the library is ranked again. That lifts a skill that shares the request's topic words only with
 * its neighbours ("cloudflare … not secure" reaches the Cloudflare TLS skill through the other Cloudflare and
 * certificate skills), at the cost of reinforcing a first pass that was wrong.
 */
import type { QueryTerm } from './text-analysis.js';

/** One skill of the first pass: its text score and its feedback words (term → field-weighted count). */
export interface FeedbackDocument {
  score: number;
  terms: ReadonlyMap<string, number>;
}

export interface FeedbackSettings {
  /** How many expansion words to add. */
  terms: number;
  /** Weight of the strongest expansion word, relative to a typed word (1); the others scale below it. */
  weight: number;
}

/**
 * Expansion words from the top of a first pass: each document's words weighted by idf and normalised to a
 * distribution (P(w|D)), mixed by the documents' share of the first-pass score (P(D|Q)), words the query
 * already has left out. Deterministic: ties break on the word itself.
 */
export function feedbackTerms(
  documents: readonly FeedbackDocument[],
  query: readonly QueryTerm[],
  idf: (term: string) => number,
  settings: FeedbackSettings,
): QueryTerm[] {
  const totalScore = documents.reduce((sum, d) => sum + Math.max(0, d.score), 0);
  if (totalScore <= 0 || settings.terms <= 0 || settings.weight <= 0) return [];
  const inQuery = new Set(query.map((q) => q.term));
  const model = new Map<string, number>();
  for (const doc of documents) {
    if (doc.score <= 0) continue;
    let mass = 0;
    const weighted: [string, number][] = [];
    for (const [term, count] of doc.terms) {
      const w = count * idf(term);
      if (w <= 0) continue;
      weighted.push([term, w]);
      mass += w;
    }
    if (mass <= 0) continue;
    const docShare = doc.score / totalScore;
    for (const [term, w] of weighted) model.set(term, (model.get(term) ?? 0) + docShare * (w / mass));
  }
  const ranked = [...model]
    .filter(([term]) => !inQuery.has(term))
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .slice(0, settings.terms);
  const strongest = ranked[0]?.[1] ?? 0;
  if (strongest <= 0) return [];
  return ranked.map(([term, p]) => ({ term, weight: settings.weight * (p / strongest) }));
}
