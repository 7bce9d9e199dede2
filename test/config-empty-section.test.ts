import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/core/config/load.js';
import { isHearthError } from '../src/core/errors.js';

function homeWith(text: string): string {
  const home = mkdtempSync(join(tmpdir(), 'hearth-config-'));
  writeFileSync(join(home, 'config.yaml'), text);
  return home;
}

function loadError(home: string): string {
  try {
    loadConfig(home);
  } catch (err) {
    if (isHearthError(err, 'config_invalid')) return err.message;
    throw err;
  }
  throw new Error('expected config_invalid');
}

/** A section left with every key commented out is YAML null: the message must say that, in the file's words. */
describe('an empty config section', () => {
  // Catches the "expected object, received null".
  it('is named with what to do', () => {
    const message = loadError(homeWith('ui:\n  # theme: dark\nlocal:\n'));
    expect(message).toContain('section "ui" is empty: remove the "ui:" line, or give it keys');
    expect(message).toContain('section "local" is empty');
    expect(message).not.toContain('received null');
  });

  it('names a nested provider entry by its own line', () => {
    const message = loadError(homeWith('providers:\n  ollama:\n'));
    expect(message).toContain('section "providers.ollama" is empty: remove the "ollama:" line');
  });

  // Catches an empty `model:` taken for a v0 model string: it was migrated to `default: "null"` and the file rewritten.
  it('is not migrated as an old-layout model string', () => {
    const home = homeWith('model:\n');
    expect(loadError(home)).toContain('section "model" is empty');
    expect(readdirSync(home)).toEqual(['config.yaml']);
    expect(readFileSync(join(home, 'config.yaml'), 'utf8')).toBe('model:\n');
  });
});
