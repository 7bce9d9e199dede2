import { open, readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { abortError } from '../errors.js';
import { globMatches, globToRegExp, nameFilter } from './glob-match.js';

export interface SearchQuery {
  pattern: string;
  target: 'content' | 'files';
  root: string;
  rootIsFile: boolean;
  file_glob?: string | undefined;
  limit: number;
}

export interface SearchResult {
  items: { path: string; line?: number; text?: string }[];
  /** More results existed beyond `limit`. */
  more: boolean;
}

/** Files larger than this are skipped by the content search (ripgrep would search them; this walker is a fallback). */
const MAX_SEARCH_BYTES = 5 * 1024 * 1024;
const MAX_TEXT_CHARS = 400;

/**
 * The search used when ripgrep is not installed: a sorted directory walk that, like ripgrep's
 * defaults, skips hidden entries and `node_modules` (it does not read .gitignore files).
 */
export async function nodeSearch(query: SearchQuery, signal: AbortSignal): Promise<SearchResult | { error: string }> {
  const items: SearchResult['items'] = [];
  const fileGlob = query.file_glob === undefined ? null : globToRegExp(query.file_glob);
  const names = query.target === 'files' ? nameFilter(query.pattern) : null;
  let regex: RegExp | null = null;
  if (query.target === 'content') {
    try {
      regex = new RegExp(query.pattern);
    } catch (err) {
      return { error: `Invalid regular expression ${JSON.stringify(query.pattern)}: ${(err as Error).message}` };
    }
  }
  const base = query.rootIsFile ? join(query.root, '..') : query.root;
  const files = query.rootIsFile ? [query.root] : walk(query.root, signal);
  for await (const file of files) {
    const rel = relative(base, file);
    if (fileGlob !== null && !globMatches(fileGlob, query.file_glob?.includes('/') ?? false, rel)) continue;
    if (names !== null) {
      if (!names(rel)) continue;
      if (items.length === query.limit) return { items, more: true };
      items.push({ path: file });
      continue;
    }
    for (const hit of await searchFile(file, regex as RegExp)) {
      if (items.length === query.limit) return { items, more: true };
      items.push(hit);
    }
  }
  return { items, more: false };
}

async function* walk(dir: string, signal: AbortSignal): AsyncGenerator<string> {
  if (signal.aborted) throw abortError(signal);
  const entries = await readdir(dir, { withFileTypes: true });
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(path, signal);
    else if (entry.isFile()) yield path;
  }
}

async function searchFile(file: string, regex: RegExp): Promise<SearchResult['items']> {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    if (size > MAX_SEARCH_BYTES) return [];
    const buffer = await handle.readFile();
    if (buffer.subarray(0, 8192).includes(0)) return []; // binary, as ripgrep skips it
    const hits: SearchResult['items'] = [];
    buffer
      .toString('utf8')
      .split(/\r?\n/)
      .forEach((text, index) => {
        if (regex.test(text)) hits.push({ path: file, line: index + 1, text: text.length > MAX_TEXT_CHARS ? `${text.slice(0, MAX_TEXT_CHARS)}…` : text });
      });
    return hits;
  } finally {
    await handle.close();
  }
}
