import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { hermesToolGates, openclawRequirements, skillPlatforms } from './extensions.js';
import type { Skill } from './types.js';

export interface AvailabilityContext {
  platform?: NodeJS.Platform;
  /** Checks `requires.bins` / `anyBins`; when absent, binaries are not checked. */
  hasBinary?: (name: string) => boolean;
  /** Checks OpenClaw `requires.env`; when absent, variables are not checked. */
  env?: NodeJS.ProcessEnv;
  /** The session's toolsets and tools, for Hermes `requires_*` / `fallback_for_*`; when absent, not checked. */
  toolsets?: readonly string[];
  tools?: readonly string[];
}

/**
 * Why a skill cannot run here, or null. SKILLS-SPEC §7 "Filtering": skills unavailable on this OS or
 * toolset stay out of the catalog. Hermes `platforms` and OpenClaw `os` / `requires.bins` feed it.
 */
export function unavailableReason(skill: Pick<Skill, 'frontmatter'>, context: AvailabilityContext = {}): string | null {
  const platform = context.platform ?? process.platform;
  const platforms = skillPlatforms(skill.frontmatter);
  if (platforms && !platforms.includes(platform)) return `runs only on ${platforms.join(', ')}`;
  const requires = openclawRequirements(skill.frontmatter);
  const { hasBinary, env, toolsets, tools } = context;
  if (hasBinary) {
    const missing = requires.bins.filter((bin) => !hasBinary(bin));
    if (missing.length) return `needs ${missing.join(', ')} on PATH`;
    if (requires.anyBins.length && !requires.anyBins.some(hasBinary)) return `needs one of ${requires.anyBins.join(', ')} on PATH`;
  }
  if (env) {
    const unset = requires.env.filter((name) => !env[name]);
    if (unset.length) return `needs the environment variable${unset.length === 1 ? '' : 's'} ${unset.join(', ')}`;
  }
  const gates = hermesToolGates(skill.frontmatter);
  return gateReason('toolset', toolsets, gates.requiresToolsets, gates.fallbackForToolsets) ?? gateReason('tool', tools, gates.requiresTools, gates.fallbackForTools);
}

function gateReason(kind: string, available: readonly string[] | undefined, required: string[], fallbackFor: string[]): string | null {
  if (!available) return null;
  const missing = required.filter((name) => !available.includes(name));
  if (missing.length) return `needs the ${kind}${missing.length === 1 ? '' : 's'} ${missing.join(', ')}`;
  const present = fallbackFor.filter((name) => available.includes(name));
  if (present.length) return `is a fallback for the ${kind} ${present.join(', ')}, which is available`;
  return null;
}

/** A PATH lookup with a cache, for `hasBinary`. */
export function binaryLookup(env: NodeJS.ProcessEnv = process.env): (name: string) => boolean {
  const cache = new Map<string, boolean>();
  const dirs = (env.PATH ?? '').split(delimiter).filter(Boolean);
  const extensions = process.platform === 'win32' ? (env.PATHEXT ?? '.EXE;.CMD;.BAT').split(';') : [''];
  return (name) => {
    const known = cache.get(name);
    if (known !== undefined) return known;
    const found = !/[\\/]/.test(name) && dirs.some((dir) => extensions.some((ext) => isExecutable(join(dir, name + ext))));
    cache.set(name, found);
    return found;
  };
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    // Not there or not executable: exactly the "no" this lookup answers.
    return false;
  }
}
