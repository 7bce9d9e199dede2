/**
 * Where a model comes from, as users write it: `hf:<owner>/<repo>/<file.gguf>`, an http(s) URL, or a path
 * to a .gguf file on this computer. Parsing never touches the network, so a typo is an error before any
 * request is made.
 */
import { homedir } from 'node:os';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { HearthError } from '../errors.js';
import { CURATED_MODELS } from './curated-models.js';
import { partNames } from './split-parts.js';

/**
 * `url`/`path` and `fileName` name the model's first file: the one llama.cpp is given. `parts` lists every file
 * the model is made of, that one first: one for most models, all of them for a split model (split-parts.ts).
 */
export type ModelSource =
  | { kind: 'remote'; source: string; url: string; fileName: string; parts: RemotePart[] }
  | { kind: 'local'; source: string; path: string; fileName: string; parts: LocalPart[] };

export interface RemotePart {
  url: string;
  fileName: string;
}

export interface LocalPart {
  path: string;
  fileName: string;
}

export const DEFAULT_HF_ENDPOINT = 'https://huggingface.co';

const REPO_PART = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

export function parseModelSource(text: string, options: { env: NodeJS.ProcessEnv; cwd?: string }): ModelSource {
  const source = text.trim();
  if (source === '') throw invalid('The model source is empty. Give an hf: URI, an http(s) URL or a path to a .gguf file.');
  if (/^hf:/i.test(source)) return parseHfUri(source, hfEndpoint(options.env));
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(source)) return parseUrl(source);
  return parseLocalPath(source, options.cwd ?? process.cwd());
}

/** `HEARTH_HF_ENDPOINT` points downloads at a mirror (or, in tests, at a local server). */
export function hfEndpoint(env: NodeJS.ProcessEnv): string {
  const endpoint = (env.HEARTH_HF_ENDPOINT ?? '').trim() || DEFAULT_HF_ENDPOINT;
  if (!/^https?:\/\/[^/]/i.test(endpoint)) {
    throw invalid(`HEARTH_HF_ENDPOINT must be an http(s) URL such as ${DEFAULT_HF_ENDPOINT} (got "${endpoint}").`);
  }
  return endpoint.replace(/\/+$/, '');
}

function parseHfUri(source: string, endpoint: string): ModelSource {
  const rest = source.slice(3);
  const quant = /^([^/:]+)\/([^/:]+):([A-Za-z0-9_]+)$/.exec(rest);
  if (quant) return resolveQuant(quant[1] as string, quant[2] as string, quant[3] as string, endpoint);
  const parts = rest.split('/');
  const [owner, repo, ...fileParts] = parts;
  if (!owner || !repo || !REPO_PART.test(owner) || !REPO_PART.test(repo)) {
    throw invalid(`"${source}" is not an hf: URI. Write hf:<owner>/<repo>/<file.gguf>, e.g. ${CURATED_MODELS[0]?.source ?? ''}.`);
  }
  if (fileParts.length === 0) {
    throw invalid(`"${source}" names a repository but not a file in it. Add the .gguf file's name: hf:${owner}/${repo}/<file.gguf> (the repository's "Files" tab lists them).`);
  }
  if (fileParts.some((p) => p === '' || p === '.' || p === '..')) {
    throw invalid(`"${source}" has an empty, "." or ".." part in its file path; name the file as the repository lists it.`);
  }
  const folder = fileParts.slice(0, -1).map((p) => `${encodeURIComponent(p)}/`).join('');
  const base = `${endpoint}/${owner}/${repo}/resolve/main/${folder}`;
  return remote(source, checkFileName(fileParts.at(-1) as string, source), (name) => base + encodeURIComponent(name));
}

/** Every part of the model `fileName` belongs to, each at the URL `urlOf` gives its name. */
function remote(source: string, fileName: string, urlOf: (name: string) => string): ModelSource {
  const parts = partNames(fileName).map((name) => ({ url: urlOf(name), fileName: name }));
  const first = parts[0] as RemotePart;
  return { kind: 'remote', source, url: first.url, fileName: first.fileName, parts };
}

/**
 * `hf:<owner>/<repo>:<quant>` names a file only through the repository's listing, which would need the
 * network and a guess at each uploader's naming scheme. It resolves for the curated models, whose file
 * names are known; anything else gets an error asking for the file name.
 */
function resolveQuant(owner: string, repo: string, quant: string, endpoint: string): ModelSource {
  const prefix = `hf:${owner}/${repo}/`.toLowerCase();
  const known = CURATED_MODELS.find(
    (m) => m.source.toLowerCase().startsWith(prefix) && m.source.toLowerCase().includes(`${quant.toLowerCase()}.gguf`),
  );
  if (known) return { ...parseHfUri(known.source, endpoint), source: known.source };
  throw invalid(
    `hf:${owner}/${repo}:${quant} does not say which file to download, and Hearth does not guess file names. ` +
      `Open the repository's "Files" tab and write hf:${owner}/${repo}/<file name>.gguf.`,
  );
}

function parseUrl(source: string): ModelSource {
  let url: URL;
  try {
    url = new URL(source);
  } catch (err) {
    throw invalid(`"${source}" is not a valid URL.`, err);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw invalid(`Only http(s) URLs can be downloaded (got ${url.protocol}//…).`);
  }
  // A Hugging Face "blob" page is HTML; the same path under /resolve/ is the file itself.
  if (/(^|\.)huggingface\.co$/i.test(url.hostname)) url.pathname = url.pathname.replace(/^(\/[^/]+\/[^/]+)\/blob\//, '$1/resolve/');
  const last = url.pathname.split('/').filter(Boolean).at(-1) ?? '';
  let decoded: string;
  try {
    decoded = decodeURIComponent(last);
  } catch (err) {
    throw invalid(`The URL's file name "${last}" is not valid percent-encoding.`, err);
  }
  return remote(source, checkFileName(decoded, source), (name) => {
    // The named file keeps the URL as given (its query, its encoding); the other parts differ only in the name.
    if (name === decoded) return url.href;
    const part = new URL(url.href);
    part.pathname = `${url.pathname.slice(0, url.pathname.lastIndexOf('/') + 1)}${encodeURIComponent(name)}`;
    return part.href;
  });
}

function parseLocalPath(source: string, cwd: string): ModelSource {
  const expanded = source === '~' || source.startsWith('~/') ? homedir() + source.slice(1) : source;
  const path = isAbsolute(expanded) ? expanded : resolve(cwd, expanded);
  if (!/\.gguf$/i.test(path)) {
    throw invalid(`"${source}" is not an hf: URI, an http(s) URL or a .gguf file. Local models must be .gguf files.`);
  }
  const parts = partNames(basename(path)).map((name) => ({ path: join(dirname(path), name), fileName: name }));
  const first = parts[0] as LocalPart;
  return { kind: 'local', source, path: first.path, fileName: first.fileName, parts };
}

/** The file lands in HEARTH_HOME/models under this name, so it must be a plain, safe .gguf name. */
function checkFileName(name: string, source: string): string {
  if (!/\.gguf$/i.test(name)) throw invalid(`"${source}" does not name a .gguf file (the last part is "${name}"). Hearth downloads GGUF models only.`);
  if (name.startsWith('.') || /[/\\\0:*?"<>|]/.test(name) || name.length > 200) {
    throw invalid(`"${name}" cannot be used as a file name in the models folder.`);
  }
  return name;
}

function invalid(message: string, cause?: unknown): HearthError {
  return new HearthError('model_source_invalid', message, cause === undefined ? undefined : { cause });
}
