import { DRY_RUN } from '../generic-verbs.js';
import { REASONS } from '../reasons.js';
import type { Scan } from '../scan.js';
import type { Command, CommandSpec, Rule } from './spec.js';

/**
 * Package managers. Removing system or global packages asks (it changes the machine, not the workspace);
 * project-local package managers (npm, cargo, poetry…) are named here so the generic verb rule does not
 * flag `npm uninstall lodash` or `yarn remove x`, which only edit the workspace.
 */
const remove = REASONS.packageRemove;
const GLOBAL = /^(-g|--global|--location=global)$/;
/** Taking a published version off the registry breaks every project that depends on it, and is not undone. */
const UNPUBLISH: Rule = { sub: 'unpublish', unless: DRY_RUN, reason: REASONS.cloudDelete };
/**
 * The registry account's grants: `npm owner rm alice pkg` takes a maintainer's publish rights away, `npm token revoke`
 * kills a token every CI using it depends on, `npm access revoke`, `npm team rm|destroy`, `npm org rm`.
 */
const REGISTRY_REVOKES: readonly Rule[] = [
  { sub: 'owner|author', operand: /^(rm|remove)$/, reason: REASONS.revokeAccess },
  { sub: 'token', operand: /^(revoke|rm|delete)$/, reason: REASONS.revokeAccess },
  { sub: 'access', operand: /^revoke$/, reason: REASONS.revokeAccess },
  { sub: 'team|org', operand: /^(rm|destroy)$/, reason: REASONS.revokeAccess },
];
/** Their database tasks drop what the project's migrations built: `mix ecto.drop`, `dotnet ef database drop`. */
const MIGRATION_DROPS: readonly Rule[] = [{ sub: 'ecto.drop|ecto.reset', reason: REASONS.sqlDrop }, { sub: 'ef database drop', reason: REASONS.sqlDrop }];

export const PACKAGE_SPECS: readonly CommandSpec[] = [
  // `-s` (in any cluster: `-ys`), `--simulate`, `--just-print`, `--dry-run`, `--recon`, `--no-act`: apt prints what it would do.
  { names: ['apt', 'apt-get', 'aptitude'], rules: [{ sub: 'remove|purge|autoremove|autopurge', unless: /^(-[a-zA-Z]*s[a-zA-Z]*|--simulate|--just-print|--dry-run|--recon|--no-act)$/, reason: remove }] },
  { names: ['nala'], rules: [{ sub: 'remove|purge|autoremove|autopurge', reason: remove }] },
  { names: ['dpkg'], rules: [{ option: /^(-r|-P|--remove|--purge)$/, reason: remove }] },
  { names: ['dnf', 'yum', 'microdnf', 'tdnf'], rules: [{ sub: 'remove|erase|autoremove|rm', reason: remove }] },
  { names: ['rpm'], rules: [{ option: /^(-e|--erase)$/, reason: remove }] },
  { names: ['zypper'], rules: [{ sub: 'remove|rm', unless: /^(-D|--dry-run)$/, reason: remove }] },
  { names: ['pacman', 'yay', 'paru'], rules: [{ option: /^(-R[a-zA-Z]*|--remove)$/, reason: remove }] },
  { names: ['apk'], rules: [{ sub: 'del', reason: remove }] },
  { names: ['port'], rules: [{ sub: 'uninstall', reason: remove }] },
  { names: ['flatpak'], rules: [{ sub: 'remove|uninstall', reason: remove }] },
  // A snap's services (`snap stop lxd`, `snap disable lxd`) are system services under another manager.
  { names: ['snap'], rules: [{ sub: 'remove|uninstall', reason: remove }, { sub: 'stop|disable', reason: REASONS.stopService }] },
  { names: ['pip', 'pip3', 'pipx'], rules: [{ sub: 'uninstall|uninstall-all', reason: remove }] },
  // Deleting old generations removes every rollback the profile had.
  { names: ['nix-collect-garbage'], rules: [{ option: /^(-d|--delete-old|--delete-older-than(=.*)?)$/, reason: remove }] },
  { names: ['gem'], rules: [{ sub: 'uninstall', reason: remove }, { sub: 'yank', reason: REASONS.cloudDelete }] },
  { names: ['cargo'], rules: [{ sub: 'uninstall', reason: remove }, { sub: 'yank', unless: /^--undo$/, reason: REASONS.cloudDelete }] },
  { names: ['rustup'], rules: [{ sub: 'toolchain uninstall|remove', reason: remove }, { sub: 'self uninstall', reason: remove }] },
  { names: ['conda', 'mamba', 'micromamba'], rules: [{ sub: 'remove|uninstall', reason: remove }, { sub: 'env remove', reason: remove }] },
  { names: ['nix-env'], rules: [{ option: /^(-e|--uninstall)$/, reason: remove }] },
  { names: ['choco', 'winget', 'scoop'], rules: [{ sub: 'uninstall|remove', reason: remove }] },
  { names: ['npm', 'pnpm', 'yarn'], check: packageScripts, rules: [{ sub: 'uninstall|remove|rm|un|r|unlink', option: GLOBAL, unless: DRY_RUN, reason: remove }, { sub: 'global remove', reason: remove }, UNPUBLISH, ...REGISTRY_REVOKES] },
  // Version managers install toolchains outside the workspace.
  { names: ['nvm', 'volta', 'asdf', 'mise', 'pyenv', 'rbenv', 'nodenv', 'sdk', 'fnm', 'goenv', 'jenv', 'rvm'], rules: [{ sub: 'uninstall|remove|rm|implode', reason: remove }, { sub: 'plugin', operand: /^(remove|uninstall)$/, reason: remove }] },
  { names: ['pipenv', 'bundle', 'bundler', 'swift', 'gradle', 'gradlew', 'mvn', 'mvnw'], rules: MIGRATION_DROPS },
  // Project managers that also install tools for the whole user account: removing one of those is a global removal,
  // while `uv remove x`, `composer remove x`, `dotnet tool uninstall x` (a local manifest) only edit the workspace.
  { names: ['uv'], rules: [{ sub: 'tool|python uninstall', reason: remove }] },
  { names: ['poetry', 'pdm'], rules: [{ sub: 'self remove|uninstall', reason: remove }] },
  { names: ['composer'], rules: [{ sub: 'global remove|uninstall', reason: remove }] },
  { names: ['dotnet'], rules: [{ sub: 'tool uninstall', option: /^(-g|--global|--tool-path(=.*)?)$/, reason: remove }, { sub: 'workload uninstall', reason: remove }, { sub: 'nuget delete', reason: REASONS.cloudDelete }, ...MIGRATION_DROPS] },
  { names: ['mix'], rules: [{ sub: 'archive.uninstall|escript.uninstall', reason: remove }, ...MIGRATION_DROPS] },
];

/** Remembered in scan.files under this prefix: a package.json script the line set (`npm pkg set scripts.x=…`). */
const PACKAGE_SCRIPT = '\uE004package-script:';

/** Subcommands that run the root package's install lifecycle scripts. */
const INSTALLS = new Set(['install', 'i', 'ci', 'add', 'isntall', 'in']);
const INSTALL_SCRIPTS = ['preinstall', 'install', 'postinstall', 'preprepare', 'prepare', 'postprepare'];
/** Subcommands that are a script of the same name (`npm test` runs scripts.test). */
const SCRIPT_SUBCOMMANDS = new Set(['test', 't', 'tst', 'start', 'stop', 'restart']);
/** Subcommands that are neither a script nor run one, so `yarn <word>` / `pnpm <word>` is not read as a script name. */
const OWN_SUBCOMMANDS = /^(pkg|set-script|config|get|set|exec|dlx|x|why|list|ls|outdated|audit|publish|pack|version|view|info|init|create|remove|uninstall|rm|un|link|unlink|upgrade|update|up|global|cache|store|workspace|workspaces|bin|help|login|logout|whoami)$/;

/**
 * `npm pkg set scripts.clean="rm -rf ~/" && npm run clean`: a script set on the line is remembered, and its code runs
 * as shell when `npm run NAME` (`run-script`, `npm test|start`, `yarn NAME`, `pnpm NAME`) or an install follows.
 */
function packageScripts(command: Command, scan: Scan): void {
  const [sub = '', ...rest] = command.operands;
  if (sub === 'pkg' && rest[0] === 'set') {
    for (const word of rest.slice(1)) {
      const set = /^scripts\.([^=]+)=(.*)$/s.exec(word);
      if (set !== null) scan.files.set(`${PACKAGE_SCRIPT}${set[1] as string}`, set[2] as string);
    }
    return;
  }
  // npm 7's `npm set-script NAME CMD`.
  if (sub === 'set-script' && rest.length >= 2) {
    scan.files.set(`${PACKAGE_SCRIPT}${rest[0] as string}`, rest.slice(1).join(' '));
    return;
  }
  if (sub === 'run' || sub === 'run-script' || sub === 'rum' || sub === 'urn') runScript(rest[0], scan);
  else if (SCRIPT_SUBCOMMANDS.has(sub)) runScript(sub === 't' || sub === 'tst' ? 'test' : sub, scan);
  else if (INSTALLS.has(sub) || (sub === '' && command.name === 'yarn')) for (const name of INSTALL_SCRIPTS) runNamed(name, scan);
  else if (command.name !== 'npm' && sub !== '' && !OWN_SUBCOMMANDS.test(sub)) runScript(sub, scan);
}

/** A script with its `pre` and `post` hooks, those the line set. */
function runScript(name: string | undefined, scan: Scan): void {
  if (name === undefined) return;
  for (const script of [`pre${name}`, name, `post${name}`]) runNamed(script, scan);
}

function runNamed(name: string, scan: Scan): void {
  const code = scan.files.get(`${PACKAGE_SCRIPT}${name}`) ?? writtenManifestScript(name, scan);
  if (code !== undefined) scan.runShell(code);
}

/** `echo '{"scripts":{"postinstall":"rm -rf ~"}}' > package.json && npm install`: a script of a manifest the line wrote. */
function writtenManifestScript(name: string, scan: Scan): string | undefined {
  const manifest = scan.files.get('package.json');
  if (manifest === undefined) return undefined;
  try {
    const scripts = (JSON.parse(manifest) as { scripts?: Record<string, unknown> }).scripts;
    const code = scripts?.[name];
    return typeof code === 'string' ? code : undefined;
  } catch {
    // Not JSON the detector can read (a partial write, UNKNOWN inside): npm would refuse it too.
    return undefined;
  }
}
