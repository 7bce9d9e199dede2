import { isPlainObject } from './compat-yaml.js';

/**
 * Client extensions kept as structured data (SKILLS-SPEC §8): Hermes Agent's `metadata.hermes` and
 * top-level keys, OpenClaw's `metadata.openclaw` (legacy `metadata.clawdbot`), and the Claude Code /
 * OpenClaw `disable-model-invocation` switch.
 */

function section(data: Record<string, unknown>, key: string): Record<string, unknown> {
  const metadata = data.metadata;
  if (!isPlainObject(metadata)) return {};
  const value = metadata[key];
  return isPlainObject(value) ? value : {};
}

function openclaw(data: Record<string, unknown>): Record<string, unknown> {
  const current = section(data, 'openclaw');
  return Object.keys(current).length ? current : section(data, 'clawdbot');
}

/** A YAML list, a flow list, or a comma-separated string, as trimmed non-empty strings. */
function stringList(value: unknown): string[] {
  if (typeof value === 'string') return value.split(',').map((s) => s.trim()).filter(Boolean);
  if (Array.isArray(value)) return value.filter((v): v is string | number => typeof v === 'string' || typeof v === 'number').map((v) => String(v).trim()).filter(Boolean);
  return [];
}

/** Keywords for relevance ranking: `metadata.hermes.tags`, top-level `tags`, OpenClaw `tags`/`keywords`. */
export function skillTags(data: Record<string, unknown>): string[] {
  const all = [...stringList(section(data, 'hermes').tags), ...stringList(data.tags), ...stringList(openclaw(data).tags), ...stringList(openclaw(data).keywords)];
  return [...new Set(all.map((t) => t.toLowerCase()))];
}

export function skillCategory(data: Record<string, unknown>): string | null {
  const hermes = section(data, 'hermes').category;
  if (typeof hermes === 'string' && hermes.trim()) return hermes.trim();
  return typeof data.category === 'string' && data.category.trim() ? data.category.trim() : null;
}

/** `true` in compat YAML, or the string "true" as strict YAML reads every scalar. */
export function disablesModelInvocation(data: Record<string, unknown>): boolean {
  const value = data['disable-model-invocation'];
  return value === true || (typeof value === 'string' && value.trim().toLowerCase() === 'true');
}

const PLATFORM_ALIASES: Record<string, NodeJS.Platform> = { macos: 'darwin', mac: 'darwin', osx: 'darwin', darwin: 'darwin', linux: 'linux', windows: 'win32', win32: 'win32', win: 'win32' };

/**
 * Operating systems the skill says it runs on (Hermes `platforms`, OpenClaw `os`), as Node platform
 * names; null when it does not say, which means everywhere.
 */
export function skillPlatforms(data: Record<string, unknown>): NodeJS.Platform[] | null {
  const declared = [...stringList(data.platforms), ...stringList(openclaw(data).os)];
  if (!declared.length) return null;
  return [...new Set(declared.map((p) => PLATFORM_ALIASES[p.toLowerCase()] ?? (p.toLowerCase() as NodeJS.Platform)))];
}

/** OpenClaw `requires.bins` (all needed), `requires.anyBins` (one is enough) and `requires.env` (variables that must be set). */
export function openclawRequirements(data: Record<string, unknown>): { bins: string[]; anyBins: string[]; env: string[] } {
  const requires = openclaw(data).requires;
  if (!isPlainObject(requires)) return { bins: [], anyBins: [], env: [] };
  return { bins: stringList(requires.bins), anyBins: stringList(requires.anyBins), env: stringList(requires.env) };
}

/**
 * Hermes toolset gating: `requires_*` must all be present; a skill that is a `fallback_for_*` something
 * is only useful while that something is missing.
 */
export function hermesToolGates(data: Record<string, unknown>): { requiresToolsets: string[]; requiresTools: string[]; fallbackForToolsets: string[]; fallbackForTools: string[] } {
  const hermes = section(data, 'hermes');
  return {
    requiresToolsets: stringList(hermes.requires_toolsets),
    requiresTools: stringList(hermes.requires_tools),
    fallbackForToolsets: stringList(hermes.fallback_for_toolsets),
    fallbackForTools: stringList(hermes.fallback_for_tools),
  };
}
