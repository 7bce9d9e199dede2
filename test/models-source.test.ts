/** How model sources are read: hf: URIs, URLs and local paths, and the errors for what is not one. */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isHearthError } from '../src/core/errors.js';
import { CURATED_MODELS } from '../src/core/model-files/curated-models.js';
import { parseModelSource } from '../src/core/model-files/model-source.js';

const env = {};
const errorOf = (fn: () => unknown): Error => {
  try {
    fn();
  } catch (err) {
    expect(isHearthError(err, 'model_source_invalid')).toBe(true);
    return err as Error;
  }
  throw new Error('expected a model_source_invalid error');
};

describe('parseModelSource', () => {
  it('resolves hf:<owner>/<repo>/<file> to the resolve/main URL on huggingface.co, or on HEARTH_HF_ENDPOINT', () => {
    // Would catch: a wrong URL shape (blob/ pages are HTML), or a mirror setting that is ignored.
    expect(parseModelSource('hf:NousResearch/Hermes-3-Llama-3.2-3B-GGUF/Hermes-3-Llama-3.2-3B.Q4_K_M.gguf', { env })).toEqual({
      kind: 'remote',
      source: 'hf:NousResearch/Hermes-3-Llama-3.2-3B-GGUF/Hermes-3-Llama-3.2-3B.Q4_K_M.gguf',
      url: 'https://huggingface.co/NousResearch/Hermes-3-Llama-3.2-3B-GGUF/resolve/main/Hermes-3-Llama-3.2-3B.Q4_K_M.gguf',
      fileName: 'Hermes-3-Llama-3.2-3B.Q4_K_M.gguf',
      parts: [{ url: 'https://huggingface.co/NousResearch/Hermes-3-Llama-3.2-3B-GGUF/resolve/main/Hermes-3-Llama-3.2-3B.Q4_K_M.gguf', fileName: 'Hermes-3-Llama-3.2-3B.Q4_K_M.gguf' }],
    });
    const mirrored = parseModelSource('hf:a/b/sub dir/x y.gguf', { env: { HEARTH_HF_ENDPOINT: 'http://127.0.0.1:9/' } });
    expect(mirrored).toMatchObject({ url: 'http://127.0.0.1:9/a/b/resolve/main/sub%20dir/x%20y.gguf', fileName: 'x y.gguf' });
    expect(errorOf(() => parseModelSource('hf:a/b/x.gguf', { env: { HEARTH_HF_ENDPOINT: 'ftp://mirror' } })).message).toMatch(/HEARTH_HF_ENDPOINT must be an http\(s\) URL/);
  });

  it('resolves hf:<owner>/<repo>:<quant> only for curated models, and asks for the file name otherwise', () => {
    // Would catch: guessing a file name that 404s after a long wait, or a silent wrong file.
    const curated = CURATED_MODELS[0]!;
    expect(parseModelSource('hf:NousResearch/Hermes-3-Llama-3.2-3B-GGUF:Q4_K_M', { env })).toMatchObject({ source: curated.source, fileName: 'Hermes-3-Llama-3.2-3B.Q4_K_M.gguf' });
    expect(errorOf(() => parseModelSource('hf:someone/Other-GGUF:Q5_K_M', { env })).message).toMatch(
      /does not say which file to download.*hf:someone\/Other-GGUF\/<file name>\.gguf/,
    );
    expect(errorOf(() => parseModelSource('hf:someone/Other-GGUF', { env })).message).toMatch(/names a repository but not a file/);
  });

  it('refuses hf: URIs that climb out of the repository and non-GGUF files', () => {
    // Would catch: ../ reaching other paths on the server, or a file name the models folder cannot hold.
    expect(errorOf(() => parseModelSource('hf:a/b/../../etc/x.gguf', { env })).message).toMatch(/has an empty, "\." or "\.\." part/);
    expect(errorOf(() => parseModelSource('hf:a/b/model.safetensors', { env })).message).toMatch(/does not name a \.gguf file/);
    expect(errorOf(() => parseModelSource('hf:-bad/b/x.gguf', { env })).message).toMatch(/is not an hf: URI/);
  });

  it('reads http(s) URLs, turning a huggingface.co blob page into the file URL', () => {
    // Would catch: downloading the HTML page behind a "blob" link the user copied from the browser.
    expect(parseModelSource('https://huggingface.co/a/b/blob/main/m.gguf', { env })).toMatchObject({ url: 'https://huggingface.co/a/b/resolve/main/m.gguf', fileName: 'm.gguf' });
    expect(parseModelSource('http://127.0.0.1:8080/files/My%20Model.gguf?download=1', { env })).toMatchObject({ fileName: 'My Model.gguf' });
    expect(errorOf(() => parseModelSource('ftp://host/m.gguf', { env })).message).toMatch(/Only http\(s\) URLs/);
    expect(errorOf(() => parseModelSource('https://host/download?id=3', { env })).message).toMatch(/does not name a \.gguf file/);
    expect(errorOf(() => parseModelSource('https://host/..%2F.hidden.gguf', { env })).message).toMatch(/cannot be used as a file name/);
  });

  it('reads local paths against the working directory and refuses non-GGUF ones', () => {
    // Would catch: a relative path resolved against the wrong folder, or any file accepted as a model.
    expect(parseModelSource('models/x.gguf', { env, cwd: '/tmp/work' })).toEqual({
      kind: 'local',
      source: 'models/x.gguf',
      path: join('/tmp/work', 'models/x.gguf'),
      fileName: 'x.gguf',
      parts: [{ path: join('/tmp/work', 'models/x.gguf'), fileName: 'x.gguf' }],
    });
    expect(errorOf(() => parseModelSource('notes.txt', { env })).message).toMatch(/not an hf: URI, an http\(s\) URL or a \.gguf file/);
    expect(errorOf(() => parseModelSource('   ', { env })).message).toMatch(/empty/);
  });
});
