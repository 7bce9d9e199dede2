import { seededRandom } from '../../seeded-random.js';
import { extractFeatures, sigmoid } from './linear-model.js';

/**
 * Training the learned model: logistic regression by stochastic gradient descent on hashed features
 * (linear-model.ts). Deterministic by construction: the examples keep the caller's order, the shuffle
 * each epoch comes from a seeded generator (seeded-random.ts, mulberry32), and nothing reads the clock or Math.random, so
 * the same corpus gives the same weights file byte for byte.
 */

export interface TrainingExample {
  text: string;
  label: 0 | 1;
  /** How much the example counts (default 1). */
  weight?: number;
}

export interface TrainOptions {
  buckets: number;
  epochs: number;
  seed: number;
  learningRate: number;
  l2: number;
}

// l2 1e-4 (was 1e-3): out-of-fold attack recall on the dev side at the 1 % benign-document threshold 20.8 % → 30.4 %
// (1e-5 and 3e-5 no better). 20 epochs and 2^18 buckets (were 10 and 2^17; 256 KB of weights): with 19,461 dev
// entries in some 40 languages, out-of-fold recall by writer at the 2 % threshold 59.6 % → 62.9 %, and on the
// multilingual writers 38.5 % → 43.9 %; on a writer held out of training (dev7e) 46.1 % / 6.3 % → 46.5 % / 4.9 %.
// (On the 7,949 entries of the morning of 2026-12-02 neither had moved recall by more than a point.)
export const DEFAULT_TRAIN_OPTIONS: TrainOptions = { buckets: 1 << 18, epochs: 20, seed: 20251201, learningRate: 1, l2: 1e-4 };

interface Encoded {
  features: Int32Array;
  scale: number;
  label: 0 | 1;
  weight: number;
}

function encode(example: TrainingExample, buckets: number): Encoded {
  const { buckets: found, count: n } = extractFeatures(example.text, buckets);
  return { features: found.slice(0, n), scale: n === 0 ? 0 : 1 / Math.sqrt(n), label: example.label, weight: example.weight ?? 1 };
}

export interface TrainedModel {
  bias: number;
  weights: Float32Array;
}

/** Fits the weights by SGD on the logistic loss with L2, attacks up-weighted (see below). */
export function trainLinearModel(examples: readonly TrainingExample[], options: TrainOptions = DEFAULT_TRAIN_OPTIONS): TrainedModel {
  const data = examples.map((e) => encode(e, options.buckets));
  return fit(data, options);
}

function fit(data: readonly Encoded[], options: TrainOptions): TrainedModel {
  const positives = data.filter((d) => d.label === 1).length;
  const negatives = data.length - positives;
  if (positives === 0 || negatives === 0) throw new Error(`cannot train the injection model: ${positives} attack and ${negatives} benign examples (both are needed)`);
  // Attacks are few: each weighs more, by the square root of the imbalance (full balancing made every
  // short note that mentions ~/.ssh or "the user" an attack).
  const classWeight = [1, Math.sqrt(negatives / positives)] as const;
  const weights = new Float32Array(options.buckets);
  let bias = 0;
  const random = seededRandom(options.seed);
  const order = data.map((_, i) => i);
  for (let epoch = 0; epoch < options.epochs; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j] as number, order[i] as number];
    }
    const rate = options.learningRate / (1 + epoch);
    for (const index of order) {
      const d = data[index] as Encoded;
      let z = bias;
      for (const b of d.features) z += (weights[b] as number) * d.scale;
      const g = (sigmoid(z) - d.label) * classWeight[d.label] * d.weight;
      bias -= rate * g;
      for (const b of d.features) weights[b] = (weights[b] as number) - rate * (g * d.scale + options.l2 * (weights[b] as number));
    }
  }
  return { bias, weights };
}

/**
 * Out-of-fold scores: each example scored by a model trained without its fold, so thresholds are chosen
 * on scores the model did not fit. Folds are assigned by `group` (examples cut from one document share a
 * group), round-robin in the caller's order.
 */
export function outOfFoldScores(examples: readonly TrainingExample[], groups: readonly string[], folds: number, options: TrainOptions = DEFAULT_TRAIN_OPTIONS): number[] {
  const data = examples.map((e) => encode(e, options.buckets));
  const foldOf = new Map<string, number>();
  for (const g of groups) if (!foldOf.has(g)) foldOf.set(g, foldOf.size % folds);
  const scores = new Array<number>(data.length).fill(0);
  for (let fold = 0; fold < folds; fold++) {
    const train = data.filter((_, i) => foldOf.get(groups[i] as string) !== fold);
    const model = fit(train, options);
    data.forEach((d, i) => {
      if (foldOf.get(groups[i] as string) !== fold) return;
      let z = model.bias;
      for (const b of d.features) z += (model.weights[b] as number) * d.scale;
      scores[i] = sigmoid(z);
    });
  }
  return scores;
}

/** The lowest threshold at which at most `rate` of the benign scores reach it. */
export function thresholdForFalsePositiveRate(benignScores: readonly number[], rate: number): number {
  const sorted = [...benignScores].sort((a, b) => b - a);
  const allowed = Math.floor(sorted.length * rate);
  const at = sorted[allowed];
  return at === undefined ? 0.5 : Math.min(0.999, at + 1e-6);
}
