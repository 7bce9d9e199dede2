import { isMap, isScalar, isSeq, type Document, type YAMLMap } from 'yaml';
import { HearthError } from '../errors.js';
import { CONFIG_VERSION } from './schema.js';

/**
 * Versioned config migrations. Each step rewrites a parsed YAML document in place (the `yaml` Document
 * API keeps the user's comments on every key a step does not touch) and bumps `version`. The loader
 * backs the file up before writing the migrated document (see load.ts).
 */
export interface ConfigMigration {
  from: number;
  describe: string;
  apply(doc: Document): void;
}

/**
 * v0 is the layout of Hearth's pre-release builds, which had no `version` key:
 *
 *   model: "openai:gpt-4o"          # a plain string
 *   fallback_model: "ollama:qwen"   # a string or a list
 *   max_iterations: 60
 *   toolset: lite
 *
 * v1 groups these under `model:` and `agent:`.
 */
const v0ToV1: ConfigMigration = {
  from: 0,
  describe: 'move model/fallback_model/max_iterations/toolset under model: and agent:',
  apply(doc) {
    const model = doc.get('model', true);
    if (isScalar(model) && model.value !== null) {
      doc.set('model', doc.createNode({ default: String(model.value) }));
      const moved = doc.getIn(['model', 'default'], true);
      if (isScalar(moved) && model.comment) moved.comment = model.comment; // keep the user's note on the value
    }

    const fallback = doc.get('fallback_model', true);
    if (fallback !== undefined) {
      const list = isSeq(fallback) ? fallback.items.map((item) => (isScalar(item) ? String(item.value) : String(item))) : isScalar(fallback) ? [String(fallback.value)] : [];
      doc.setIn(['model', 'fallbacks'], doc.createNode(list));
      doc.delete('fallback_model');
    }

    for (const key of ['max_iterations', 'toolset'] as const) {
      if (!doc.has(key)) continue;
      if (!isMap(doc.get('agent', true))) doc.set('agent', doc.createNode({}));
      doc.setIn(['agent', key], doc.get(key, true));
      doc.delete(key);
    }
  },
};

export const CONFIG_MIGRATIONS: readonly ConfigMigration[] = [v0ToV1];

/** Keys only the unversioned v0 layout has (a scalar `model` counts too). */
const V0_KEYS = ['fallback_model', 'max_iterations', 'toolset'] as const;

/**
 * The version a document declares. Without `version`, a file in the v0 layout is v0; any other file
 * (one written by hand in today's layout, say) is taken as current, so it is never rewritten for nothing.
 */
export function configVersionOf(doc: Document, file: string): number {
  const raw: unknown = doc.get('version');
  if (raw === undefined || raw === null) {
    // An empty `model:` (YAML null) is an empty v1 section, not a v0 model string: migrating it would save `default: "null"`.
    const model = doc.get('model', true);
    const looksV0 = (isScalar(model) && model.value !== null) || V0_KEYS.some((key) => doc.has(key));
    return looksV0 ? 0 : CONFIG_VERSION;
  }
  if (typeof raw !== 'number' || !Number.isInteger(raw) || raw < 0) {
    throw new HearthError('config_invalid', `${file}: version: expected a whole number such as ${CONFIG_VERSION}, got ${JSON.stringify(raw)}`, {
      details: { key: 'version' },
    });
  }
  if (raw > CONFIG_VERSION) {
    throw new HearthError(
      'config_invalid',
      `${file}: version ${raw} was written by a newer Hearth; this build understands up to version ${CONFIG_VERSION}. Upgrade Hearth, or restore a config.yaml.bak-* backup.`,
      { details: { key: 'version' } },
    );
  }
  return raw;
}

/**
 * Bring `doc` up to CONFIG_VERSION. Returns the version it started from; `from === CONFIG_VERSION`
 * means nothing changed.
 */
export function migrateConfigDocument(doc: Document, file: string, migrations: readonly ConfigMigration[] = CONFIG_MIGRATIONS): { from: number; to: number } {
  const from = configVersionOf(doc, file);
  let version = from;
  while (version < CONFIG_VERSION) {
    const step = migrations.find((m) => m.from === version);
    if (!step) throw new Error(`No config migration from version ${version}: CONFIG_MIGRATIONS is incomplete`);
    step.apply(doc);
    version += 1;
    if (!doc.has('version') && isMap(doc.contents)) prependVersion(doc, doc.contents, version);
    else doc.set('version', version);
  }
  return { from, to: version };
}

/** Put `version` first, after the file's leading comment (which yaml attaches to the first key). */
function prependVersion(doc: Document, map: YAMLMap, version: number): void {
  const pair = doc.createPair('version', version);
  const firstKey = map.items[0]?.key;
  if (isScalar(firstKey) && firstKey.commentBefore && isScalar(pair.key)) {
    pair.key.commentBefore = firstKey.commentBefore;
    firstKey.commentBefore = undefined;
  }
  map.items.unshift(pair);
}

/** `config.yaml.bak-v0-20250101T120000Z`: sorts by time, says which layout it holds. */
export function backupFileName(fromVersion: number, now: Date = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  return `config.yaml.bak-v${fromVersion}-${stamp}`;
}
