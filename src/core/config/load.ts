import { constants, copyFileSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { isMap, parseDocument, stringify, type Document } from 'yaml';
import type { z } from 'zod';
import { HearthError, errorMessage } from '../errors.js';
import { backupFileName, migrateConfigDocument } from './migrations.js';
import { ConfigSchema, PROVIDER_PRESETS, defaultConfig, type HearthConfig } from './schema.js';
import { findUnknownKeys } from './unknown-keys.js';

export interface LoadedConfig {
  config: HearthConfig;
  /** Problems that did not stop loading (unknown keys, a migration that ran). Surfaces show them. */
  warnings: string[];
  path: string;
  /** Set when an older layout was migrated: where the original was copied before the rewrite. */
  backupPath?: string;
}

export function configPath(home: string): string {
  return join(home, 'config.yaml');
}

/**
 * Read `<home>/config.yaml`. A missing file is the default configuration. Malformed YAML or an invalid
 * value is a `config_invalid` error naming the key and what it accepts; unknown keys are warnings. An
 * older layout is migrated, and the file is rewritten only after the original is backed up and the
 * migrated result validates.
 */
export function loadConfig(home: string): LoadedConfig {
  const path = configPath(home);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { config: defaultConfig(), warnings: [], path };
    throw new HearthError('config_io', `Cannot read ${path}: ${errorMessage(err)}`, { cause: err });
  }

  const doc = parseYaml(text, path);
  const { from, to } = migrateConfigDocument(doc, path);
  const raw: unknown = doc.toJS() ?? {};
  const config = validate(raw, path);
  const warnings = findUnknownKeys(ConfigSchema, raw).map((w) => `${path}: ${w}`);

  if (from === to) return { config, warnings, path };
  const backupPath = backupThenWrite(path, from, doc.toString());
  warnings.push(`${path} was migrated from version ${from} to ${to}; the original is saved as ${backupPath}`);
  return { config, warnings, path, backupPath };
}

/**
 * Write the configuration (atomically, owner-only). An existing file is edited in place: only the keys whose value
 * changed are written, so the user's comments, key order and omitted defaults survive a save from settings or an
 * "always" approval. A new file gets the whole configuration. Built-in provider presets are not repeated in the file.
 */
export function saveConfig(home: string, config: HearthConfig): void {
  const path = configPath(home);
  const validated = validate(config, path);
  const existing = readExisting(path);
  if (existing !== null) {
    const doc = parseYaml(existing, path);
    migrateConfigDocument(doc, path);
    const before = validate(doc.toJS() ?? {}, path);
    // The edit must read back as exactly what was asked; if the file's shape defeats it, write the whole config.
    if (editedInPlace(doc, fileView(before), fileView(validated), validated)) {
      writeAtomically(path, doc.toString());
      return;
    }
  }
  const body = stringify(fileView(validated), { lineWidth: 0 });
  writeAtomically(path, `# Hearth configuration. Every key is optional; omitted keys take their defaults.\n${body}`);
}

function readExisting(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new HearthError('config_io', `Cannot read ${path}: ${errorMessage(err)}`, { cause: err });
  }
}

/** The configuration as the file holds it: presets left out unless the user changed them. */
function fileView(config: HearthConfig): Record<string, unknown> {
  const providers = Object.fromEntries(Object.entries(config.providers).filter(([name, provider]) => !isSameProvider(PROVIDER_PRESETS[name], provider)));
  return { ...config, providers };
}

function editedInPlace(doc: Document, before: unknown, after: unknown, wanted: HearthConfig): boolean {
  try {
    writeChanges(doc, [], before, after);
    return JSON.stringify(ConfigSchema.parse(doc.toJS() ?? {})) === JSON.stringify(wanted);
  } catch {
    // A node of an unexpected kind where a key goes (yaml refuses to set inside a scalar): the whole-file write follows.
    return false;
  }
}

/** Sets or deletes, in `doc`, each leaf where `after` differs from `before`; mappings are walked, lists replaced whole. */
function writeChanges(doc: Document, path: string[], before: unknown, after: unknown): void {
  if (isPlainObject(before) && isPlainObject(after)) {
    for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) writeChanges(doc, [...path, key], before[key], after[key]);
    return;
  }
  if (JSON.stringify(before) === JSON.stringify(after)) return;
  if (after === undefined) {
    if (doc.hasIn(path)) doc.deleteIn(path);
    return;
  }
  doc.setIn(path, after);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parseYaml(text: string, path: string): Document {
  const doc = parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  const first = doc.errors[0];
  if (first) {
    const where = first.linePos ? ` line ${first.linePos[0].line}, column ${first.linePos[0].col}` : '';
    throw new HearthError('config_invalid', `${path}:${where}: not valid YAML: ${first.message.split('\n')[0]}`, { cause: first });
  }
  if (doc.contents !== null && !isMap(doc.contents)) {
    throw new HearthError('config_invalid', `${path}: expected a mapping of settings (key: value lines) at the top level`);
  }
  return doc;
}

function validate(raw: unknown, path: string): HearthConfig {
  const result = ConfigSchema.safeParse(raw);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => describeIssue(issue, raw));
  throw new HearthError('config_invalid', `${path}: ${problems.join('; ')}`, {
    details: { keys: result.error.issues.map((issue) => keyPath(issue.path)) },
  });
}

function describeIssue(issue: z.core.$ZodIssue, raw: unknown): string {
  const key = keyPath(issue.path) || '(top level)';
  const got = valueAt(raw, issue.path);
  // `ui:` with nothing under it (every key commented out) is YAML null; zod's "expected object, received null" reads as an internal.
  if (got === null && issue.code === 'invalid_type' && (issue.expected === 'object' || issue.expected === 'record')) {
    const name = String(issue.path[issue.path.length - 1] ?? key);
    return `section "${key}" is empty: remove the "${name}:" line, or give it keys`;
  }
  const shown = got === undefined ? '' : ` (got ${truncate(JSON.stringify(got), 60)})`;
  return `${key}: ${issue.message}${shown}`;
}

/** `agent.max_iterations`, `model.fallbacks[1]`. */
function keyPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((acc, part) => (typeof part === 'number' ? `${acc}[${part}]` : acc ? `${acc}.${String(part)}` : String(part)), '');
}

function valueAt(raw: unknown, path: readonly PropertyKey[]): unknown {
  let current = raw;
  for (const part of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<PropertyKey, unknown>)[part];
  }
  return current;
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

function isSameProvider(a: object | undefined, b: object): boolean {
  return a !== undefined && JSON.stringify(Object.entries(a).sort()) === JSON.stringify(Object.entries(b).sort());
}

function backupThenWrite(path: string, fromVersion: number, migrated: string): string {
  const backupPath = join(dirname(path), backupFileName(fromVersion));
  try {
    // EXCL: never overwrite an earlier backup, even one made in the same second.
    copyFileSync(path, backupPath, constants.COPYFILE_EXCL);
  } catch (err) {
    throw new HearthError('config_io', `Cannot back up ${path} before migrating it (to ${backupPath}): ${errorMessage(err)}. The file was left unchanged.`, { cause: err });
  }
  writeAtomically(path, migrated);
  return backupPath;
}

function writeAtomically(path: string, text: string): void {
  const temp = `${path}.tmp-${process.pid}`;
  try {
    writeFileSync(temp, text, { mode: 0o600 });
    renameSync(temp, path);
  } catch (err) {
    throw new HearthError('config_io', `Cannot write ${path}: ${errorMessage(err)}`, { cause: err });
  }
}
