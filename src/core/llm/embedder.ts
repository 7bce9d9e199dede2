/**
 * Text embeddings for semantic session search. Optional: search is lexical unless the user configures
 * an embedding GGUF (`search.embedding_model`). Vectors are L2-normalised, so a dot product is the cosine.
 */
export interface Embedder {
  /** `local:/path/model.gguf`: vectors from different models are never compared. */
  readonly id: string;
  /** Vector length; known after the model has loaded (the first `embed` call). */
  dimensions(): Promise<number>;
  embed(texts: readonly string[], signal?: AbortSignal): Promise<Float32Array[]>;
  dispose(): Promise<void>;
}
