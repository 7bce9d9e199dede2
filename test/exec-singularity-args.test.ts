import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isHearthError } from '../src/core/errors.js';
import { createSingularityBackend } from '../src/core/exec/singularity.js';
import {
  envFlagValue, resolveSingularityBinary, singularityExecArgs, startDirectory,
} from '../src/core/exec/singularity-command.js';

/**
 * The `apptainer exec` argv is where the isolation lives (the CLI cannot run here): these catch a dropped
 * `--containall`/`--cleanenv`, a network left on, a bind that is not 1:1, and `--env` values the CLI would split.
 */
const invocation = { image: '/images/dev.sif', workspace: '/home/me/project', pwd: '/home/me/project/src', env: { LANG: 'C.UTF-8' }, script: 'echo hi' };

describe('singularityExecArgs', () => {
  it('contains the payload: containall, cleanenv, no home, the workspace bound at its own path, the start directory', () => {
    const args = singularityExecArgs({ ...invocation, network: true });
    expect(args.slice(0, 4)).toEqual(['exec', '--containall', '--cleanenv', '--no-home']);
    expect(args[args.indexOf('--bind') + 1]).toBe('/home/me/project:/home/me/project');
    expect(args[args.indexOf('--pwd') + 1]).toBe('/home/me/project/src');
    // The image comes after every flag, then the shell: anything after the image is the payload's argv, not flags.
    expect(args.slice(-4)).toEqual(['/images/dev.sif', '/bin/sh', '-c', 'echo hi']);
    expect(args).not.toContain('--net');
  });

  it('network off means --net --network none (an isolated loopback only)', () => {
    const args = singularityExecArgs({ ...invocation, network: false });
    const at = args.indexOf('--net');
    expect(args.slice(at, at + 3)).toEqual(['--net', '--network', 'none']);
    expect(at).toBeLessThan(args.indexOf('/images/dev.sif'));
  });

  it('passes each variable as its own --env', () => {
    const args = singularityExecArgs({ ...invocation, network: false, env: { A: '1', B: 'two words' } });
    const envs = args.flatMap((arg, i) => (arg === '--env' ? [args[i + 1]] : []));
    expect(envs).toEqual(['A=1', 'B=two words']);
  });

  it('quotes values the CLI would split as CSV (a comma would otherwise set a second variable)', () => {
    expect(envFlagValue('X', 'a,b')).toBe('"X=a,b"');
    expect(envFlagValue('X', 'say "hi"')).toBe('"X=say ""hi"""');
    expect(envFlagValue('X', 'line1\nline2')).toBe('"X=line1\nline2"');
    expect(envFlagValue('X', 'plain')).toBe('X=plain');
  });

  it('refuses a variable name that is not a name', () => {
    expect(() => envFlagValue('A=B', 'x')).toThrow(/invalid environment variable name/);
  });
});

describe('startDirectory', () => {
  it('starts inside the workspace when the cwd is there, else at the workspace (the script then tries the cwd)', () => {
    expect(startDirectory('/w/a/b', '/w')).toBe('/w/a/b');
    expect(startDirectory('/w', '/w')).toBe('/w');
    expect(startDirectory('/usr/lib', '/w')).toBe('/w');
    // A sibling that shares the prefix is not inside the workspace.
    expect(startDirectory('/w2/x', '/w')).toBe('/w');
  });
});

describe('resolveSingularityBinary', () => {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-sing-bin-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const put = (name: string, mode: number): void => {
    writeFileSync(join(dir, name), '#!/bin/sh\n');
    chmodSync(join(dir, name), mode);
  };

  it('auto takes apptainer before singularity, and skips files that are not executable', () => {
    put('singularity', 0o755);
    expect(resolveSingularityBinary('auto', dir)).toBe(join(dir, 'singularity'));
    put('apptainer', 0o644);
    expect(resolveSingularityBinary('auto', dir)).toBe(join(dir, 'singularity'));
    chmodSync(join(dir, 'apptainer'), 0o755);
    expect(resolveSingularityBinary('auto', `/nonexistent:${dir}`)).toBe(join(dir, 'apptainer'));
  });

  it('neither on PATH: backend_unavailable that says how to install it', () => {
    const failure = (() => {
      try {
        return resolveSingularityBinary('auto', '/nonexistent');
      } catch (err) {
        return err;
      }
    })();
    expect(isHearthError(failure, 'backend_unavailable')).toBe(true);
    expect((failure as Error).message).toMatch(/apptainer.*singularity.*not on PATH.*Install Apptainer/s);
  });
});

describe('createSingularityBackend', () => {
  it('without an image: a config error naming terminal.singularity.image', () => {
    const config = { binary: 'auto', network: false, auto_approve: false } as const;
    expect(() => createSingularityBackend(config, { workspace: '/tmp', env: {} })).toThrow(/terminal\.singularity\.image/);
  });
});
