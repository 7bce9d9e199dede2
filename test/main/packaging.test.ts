import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

/**
 * The packaged app cannot be built here (no network for Electron or the native rebuild), so the security-
 * relevant packaging settings are checked where they live. Bug caught: a fuse flipped back on (RunAsNode
 * turns the signed app into a Node interpreter for anyone), asar integrity off, native binaries left inside
 * the asar (they cannot be loaded from there), or the preload/model host missing from the package.
 */
const root = resolve(import.meta.dirname, '../..');
const builder = parse(readFileSync(join(root, 'electron-builder.yml'), 'utf8')) as Record<string, unknown>;

describe('electron-builder.yml', () => {
  it('sets every fuse the issue asks for', () => {
    expect(builder.electronFuses).toMatchObject({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      enableCookieEncryption: true,
      grantFileProtocolExtraPrivileges: false,
    });
  });

  it('packs into asar and unpacks llama.cpp binaries and native addons', () => {
    expect(builder.asar).toBe(true);
    expect(builder.asarUnpack).toEqual(expect.arrayContaining(['node_modules/node-llama-cpp/**', 'node_modules/@node-llama-cpp/**', '**/*.node']));
    expect(builder.npmRebuild).toBe(true);
  });

  it('ships main, the preload, the engine, the model host and the renderer', () => {
    expect(builder.files).toEqual(expect.arrayContaining(['dist/main/**', 'dist/preload/**', 'dist/core/**', 'dist/shared/**', 'dist/model-host/**', 'dist/renderer/**', 'package.json']));
  });

  it('targets AppImage and deb, dmg, and nsis', () => {
    expect((builder.linux as { target: string[] }).target).toEqual(['AppImage', 'deb']);
    expect((builder.mac as { target: string[] }).target).toEqual(['dmg']);
    expect((builder.win as { target: string[] }).target).toEqual(['nsis']);
  });

  // Bug caught: a misspelt or misplaced key that only fails on the packaging machine.
  it('is valid against electron-builder 26\'s own configuration schema', async () => {
    const { validateConfiguration } = createRequire(import.meta.url)('app-builder-lib/out/util/config/config.js') as {
      validateConfiguration(config: unknown, debug: { get(): Promise<null> }): Promise<void>;
    };
    await expect(validateConfiguration(builder, { get: async () => null })).resolves.toBeUndefined();
    await expect(validateConfiguration({ ...builder, asarUnpak: [] }, { get: async () => null })).rejects.toThrow(/asarUnpak/);
  });

  it('package.json main points at the compiled main process', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { main: string };
    expect(pkg.main).toBe('dist/main/main.js');
  });
});
