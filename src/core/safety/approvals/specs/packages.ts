import { REASONS } from '../reasons.js';
import type { CommandSpec } from './spec.js';

/**
 * Package managers. Removing system or global packages asks (it changes the machine, not the workspace);
 * project-local package managers (npm, cargo, poetry…) are named here so the generic verb rule does not
 * flag `npm uninstall lodash` or `yarn remove x`, which only edit the workspace.
 */
const remove = REASONS.packageRemove;
const GLOBAL = /^(-g|--global|--location=global)$/;

export const PACKAGE_SPECS: readonly CommandSpec[] = [
  { names: ['apt', 'apt-get', 'aptitude', 'nala'], rules: [{ sub: 'remove|purge|autoremove|autopurge', reason: remove }] },
  { names: ['dpkg'], rules: [{ option: /^(-r|-P|--remove|--purge)$/, reason: remove }] },
  { names: ['dnf', 'yum', 'microdnf', 'tdnf'], rules: [{ sub: 'remove|erase|autoremove|rm', reason: remove }] },
  { names: ['rpm'], rules: [{ option: /^(-e|--erase)$/, reason: remove }] },
  { names: ['zypper'], rules: [{ sub: 'remove|rm', reason: remove }] },
  { names: ['pacman', 'yay', 'paru'], rules: [{ option: /^(-R[a-zA-Z]*|--remove)$/, reason: remove }] },
  { names: ['apk'], rules: [{ sub: 'del', reason: remove }] },
  { names: ['port'], rules: [{ sub: 'uninstall', reason: remove }] },
  { names: ['snap', 'flatpak'], rules: [{ sub: 'remove|uninstall', reason: remove }] },
  { names: ['pip', 'pip3', 'pipx'], rules: [{ sub: 'uninstall|uninstall-all', reason: remove }] },
  // Deleting old generations removes every rollback the profile had.
  { names: ['nix-collect-garbage'], rules: [{ option: /^(-d|--delete-old|--delete-older-than(=.*)?)$/, reason: remove }] },
  { names: ['gem'], rules: [{ sub: 'uninstall', reason: remove }] },
  { names: ['cargo'], rules: [{ sub: 'uninstall', reason: remove }] },
  { names: ['rustup'], rules: [{ sub: 'toolchain uninstall|remove', reason: remove }, { sub: 'self uninstall', reason: remove }] },
  { names: ['conda', 'mamba', 'micromamba'], rules: [{ sub: 'remove|uninstall', reason: remove }, { sub: 'env remove', reason: remove }] },
  { names: ['nix-env'], rules: [{ option: /^(-e|--uninstall)$/, reason: remove }] },
  { names: ['choco', 'winget', 'scoop'], rules: [{ sub: 'uninstall|remove', reason: remove }] },
  { names: ['npm', 'pnpm', 'yarn'], rules: [{ sub: 'uninstall|remove|rm|un|r|unlink', option: GLOBAL, reason: remove }, { sub: 'global remove', reason: remove }] },
  // Version managers install toolchains outside the workspace.
  { names: ['nvm', 'volta', 'asdf', 'mise', 'pyenv', 'rbenv', 'nodenv', 'sdk', 'fnm', 'goenv', 'jenv', 'rvm'], rules: [{ sub: 'uninstall|remove|rm|implode', reason: remove }, { sub: 'plugin', operand: /^(remove|uninstall)$/, reason: remove }] },
  // Their database tasks drop what the project's migrations built: `mix ecto.drop`, `dotnet ef database drop`.
  { names: ['poetry', 'uv', 'pdm', 'pipenv', 'bundle', 'bundler', 'composer', 'go', 'mix', 'dotnet', 'swift', 'gradle', 'gradlew', 'mvn', 'mvnw'], rules: [{ sub: 'ecto.drop|ecto.reset', reason: REASONS.sqlDrop }, { sub: 'ef database drop', reason: REASONS.sqlDrop }] },
];
