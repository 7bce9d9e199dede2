/**
 * The environment commands the model writes get: a fixed set of harmless variables plus the names the user
 * lists in `terminal.env_passthrough`. Everything else of Hearth's own environment stays out, above all API
 * keys and tokens (OPENAI_API_KEY, GITHUB_TOKEN, AWS_*): a `printenv` or `curl -d "$(env)"` must not leak them.
 */
const SAFE_NAMES = new Set([
  'PATH', 'HOME', 'USER', 'LOGNAME', 'SHELL', 'TERM', 'COLORTERM', 'TZ', 'TMPDIR', 'TEMP', 'TMP',
  'LANG', 'LANGUAGE', 'PWD', 'HOSTNAME', 'DISPLAY', 'WAYLAND_DISPLAY', 'XDG_RUNTIME_DIR', 'XDG_CONFIG_HOME',
  'XDG_DATA_HOME', 'XDG_CACHE_HOME', 'XDG_STATE_HOME', 'EDITOR', 'VISUAL', 'NO_COLOR', 'FORCE_COLOR',
  // Windows essentials, so the same allowlist serves there.
  'SYSTEMROOT', 'COMSPEC', 'PATHEXT', 'WINDIR', 'USERPROFILE', 'APPDATA', 'LOCALAPPDATA', 'PROGRAMDATA', 'PROGRAMFILES',
]);

/** Locale variables (`LC_ALL`, `LC_CTYPE`, …) carry no secrets and change how tools print text. */
const SAFE_PREFIXES = ['LC_'];

export function commandEnvironment(source: NodeJS.ProcessEnv, passthrough: readonly string[] = []): Record<string, string> {
  const allowed = new Set(passthrough);
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(source)) {
    if (value === undefined) continue;
    if (SAFE_NAMES.has(name) || allowed.has(name) || SAFE_PREFIXES.some((prefix) => name.startsWith(prefix))) env[name] = value;
  }
  return env;
}
