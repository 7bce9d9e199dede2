/**
 * Reciprocal rank fusion (Cormack, Clarke & Büttcher, SIGIR 2009): score(d) = Σ_lists w / (k + rank(d)).
 * Used where the lists' scores are not comparable (bm25 against cosine similarity): only ranks count,
 * so neither list needs calibrating against the other. k = 60 is the paper's constant; it keeps the
 * first few ranks of one list from dominating everything else.
 */
export const RRF_K = 60;

export interface FusedItem {
  id: number;
  score: number;
}

/** Ids ordered by fused score; ties keep the order of first appearance (earlier lists first). */
export function reciprocalRankFusion(lists: readonly (readonly number[])[], options: { k?: number; weights?: readonly number[] } = {}): FusedItem[] {
  const k = options.k ?? RRF_K;
  const scores = new Map<number, number>();
  lists.forEach((list, listIndex) => {
    const weight = options.weights?.[listIndex] ?? 1;
    list.forEach((id, rank) => scores.set(id, (scores.get(id) ?? 0) + weight / (k + rank + 1)));
  });
  return [...scores].map(([id, score]) => ({ id, score })).sort((a, b) => b.score - a.score);
}
