import { countTokens as countCl100k } from 'gpt-tokenizer/encoding/cl100k_base';

/** The tokenizer used for model-independent token counts (see docs/decisions/0002). */
export const REFERENCE_TOKENIZER = 'cl100k_base';

/** Tokens of `text` under the reference tokenizer: a real BPE count, not a chars/4 estimate. */
export function countReferenceTokens(text: string): number {
  return countCl100k(text);
}
