import { accessSync, constants, existsSync, openSync, readSync, closeSync } from 'node:fs';
import { resolveHome } from '../../core/config/home.js';
import { ConfigService } from '../../core/config/config-service.js';
import { errorMessage, isHearthError } from '../../core/errors.js';
import { parseModelSpec } from '../../core/llm/model-spec.js';
import { detectGpu } from '../../core/local-model/local-gpu.js';
import { loadInjectionModel } from '../../core/safety/injection/model-weights.js';
import { probeProvider } from '../../core/llm/provider-probe.js';
import type { ProviderConfig } from '../../core/config/schema.js';
import { apiKeyAccount, deleteSecret, getSecret, setSecret } from '../../core/safety/secrets/keychain.js';
import { describeRun, LearningJournal } from '../../core/learning/journal.js';
import { openStore } from '../../core/store/open-store.js';
import { parseCommandArgs } from '../args.js';
import type { CliIO } from '../io.js';
import { styler } from '../render.js';

interface Check {
  name: string;
  ok: boolean;
  detail: string;
  /** What to do about it; required when !ok (and given with a warning). */
  fix?: string;
  /** Worth the user's attention but not broken: printed with ⚠, and the exit code stays 0. */
  warning?: boolean;
}

/** `hearth doctor`: each check prints ✓ or ✗ with the fix. Exit 1 when anything needs fixing. */
export async function doctorCommand(argv: string[], io: CliIO): Promise<number> {
  const { values } = parseCommandArgs('doctor', argv, { json: { type: 'boolean' } });
  if (values.help) {
    io.out('Usage: hearth doctor [--json]\nChecks the keychain, the database key, the configured models, the GPU and providers.\n');
    return 0;
  }
  const checks = await runChecks(io.env);
  if (values.json) io.out(`${JSON.stringify({ ok: checks.every((c) => c.ok), checks })}\n`);
  else {
    const s = styler(io.isTTY && !io.env.NO_COLOR);
    for (const c of checks) {
      io.out(`${!c.ok ? s.red('✗') : c.warning ? s.yellow('⚠') : s.green('✓')} ${c.name}: ${c.detail}\n`);
      if ((!c.ok || c.warning) && c.fix) io.out(`    fix: ${c.fix}\n`);
    }
  }
  return checks.every((c) => c.ok) ? 0 : 1;
}

async function runChecks(env: NodeJS.ProcessEnv): Promise<Check[]> {
  const home = resolveHome(env);
  const checks: Check[] = [];

  const homeWritable = existsSync(home) ? canWrite(home) : true;
  checks.push({ name: 'home', ok: homeWritable, detail: home, fix: 'make the folder writable or set HEARTH_HOME to a writable folder' });

  let config;
  try {
    const warnings: string[] = [];
    const service = new ConfigService(home, { onWarning: (warning) => warnings.push(warning) });
    config = service.current();
    checks.push({ name: 'config', ok: true, detail: warnings.length ? warnings.join('; ') : `${service.path} is valid` });
  } catch (err) {
    checks.push({ name: 'config', ok: false, detail: errorMessage(err), fix: 'edit config.yaml as the message says (see docs/configuration.md)' });
  }

  checks.push(checkKeychain(env));
  checks.push(checkDatabase(home, env));
  const learning = checkLearningJournal(home, env);
  if (learning !== null) checks.push(learning);
  checks.push(checkInjectionModel());

  if (config) {
    for (const spec of [config.model.default, ...config.model.fallbacks]) checks.push(await checkModel(spec, home, config.providers, env));
  }

  try {
    const gpu = await detectGpu();
    checks.push({ name: 'gpu', ok: true, detail: gpu ? `${gpu} acceleration available` : 'none found; local models run on the CPU' });
  } catch (err) {
    checks.push({ name: 'gpu', ok: false, detail: errorMessage(err), fix: 'reinstall Hearth (npm ci) so node-llama-cpp\'s prebuilt binaries are present' });
  }
  return checks;
}

/** The injection scanner's learned model is a build output; without it every scan runs on its rules alone. */
function checkInjectionModel(): Check {
  const status = loadInjectionModel();
  if (status.state === 'loaded') return { name: 'injection model', ok: true, detail: `${status.path} (flags at ${status.model.flagAt.toFixed(2)})` };
  return { name: 'injection model', ok: false, detail: `the prompt-injection scanner runs on its rules only: ${status.reason}`, fix: 'run `npm run build` in the Hearth folder' };
}

/**
 * The keychain is usable when a secret can be stored, read back and removed: a read alone succeeds on a locked
 * collection that answers "no such item", and that keychain still cannot hold the database key or an API key.
 */
function checkKeychain(env: NodeJS.ProcessEnv): Check {
  const override = Boolean(env.HEARTH_DB_KEY);
  const fix = 'unlock or install a Secret Service keychain (GNOME Keyring, KWallet, KeePassXC), or set HEARTH_DB_KEY to 64 hex characters';
  const account = `doctor-probe-${process.pid}`;
  const probe = `probe-${Date.now()}`;
  try {
    setSecret(account, probe);
    const read = getSecret(account);
    deleteSecret(account);
    if (read !== probe) return { name: 'keychain', ok: override, warning: override, detail: 'the OS keychain accepted a test secret but gave back something else', fix };
    return { name: 'keychain', ok: true, detail: 'the OS keychain stores, returns and removes a test secret' };
  } catch (err) {
    return {
      name: 'keychain',
      ok: override,
      warning: override,
      detail: `${errorMessage(err)}${override ? ' (HEARTH_DB_KEY is set, so the database can still be opened; API keys need their environment variables)' : ''}`,
      fix,
    };
  }
}

function checkDatabase(home: string, env: NodeJS.ProcessEnv): Check {
  try {
    const store = openStore(home, { env });
    const count = store.listSessions({ limit: 1 }).length;
    store.close();
    return { name: 'database', ok: true, detail: `encrypted store opens${count ? '' : ' (no sessions yet)'}${env.HEARTH_DB_KEY ? ' with HEARTH_DB_KEY' : ' with the keychain key'}` };
  } catch (err) {
    const fix = isHearthError(err, 'db_wrong_key')
      ? 'set HEARTH_DB_KEY to the key the database was created with, or restore the keychain entry'
      : 'see the message above';
    return { name: 'database', ok: false, detail: errorMessage(err), fix };
  }
}

/** Background runs this recent count: a day is long enough to notice, short enough that old failures fade. */
const RECENT_LEARNING_MS = 24 * 3_600_000;
/** Failures named on the doctor's line at most; the rest are counted. */
const NAMED_FAILURES = 3;

/**
 * Background learning fails where nobody watches (issue 11): warn when recent runs failed or had their writes
 * refused, naming them. Null when the store cannot be opened (the database check already says why).
 */
function checkLearningJournal(home: string, env: NodeJS.ProcessEnv): Check | null {
  let store;
  try {
    store = openStore(home, { env });
  } catch (err) {
    void err; // reported by checkDatabase
    return null;
  }
  try {
    const failed = new LearningJournal(store.db).failedSince(Date.now() - RECENT_LEARNING_MS);
    if (failed.length === 0) return { name: 'learning', ok: true, detail: 'no background run failed in the last 24 hours' };
    const named = failed.slice(0, NAMED_FAILURES).map((run) => `#${run.id} ${describeRun(run)}`).join('; ');
    const more = failed.length > NAMED_FAILURES ? ` and ${failed.length - NAMED_FAILURES} more` : '';
    return {
      name: 'learning',
      ok: true,
      warning: true,
      detail: `${failed.length} background run${failed.length === 1 ? '' : 's'} failed in the last 24 hours: ${named}${more}`,
      fix: 'see `hearth learning log` for every run and why it failed',
    };
  } finally {
    store.close();
  }
}

/** Probing an endpoint: long enough for a remote listing, short enough that a dead one does not hold doctor up. */
const PROBE_TIMEOUT_MS = 5_000;

async function checkModel(spec: string, home: string, providers: Record<string, ProviderConfig>, env: NodeJS.ProcessEnv): Promise<Check> {
  const name = `model ${spec}`;
  try {
    const parsed = parseModelSpec(spec, { home });
    if (parsed.kind === 'local') {
      if (!existsSync(parsed.path)) {
        return { name, ok: false, detail: `${parsed.path} does not exist`, fix: 'download a GGUF model (e.g. Hermes 3) into that path, run `hearth setup`, or pass --model' };
      }
      return isGguf(parsed.path)
        ? { name, ok: true, detail: `${parsed.path} is a GGUF file` }
        : { name, ok: false, detail: `${parsed.path} is not a GGUF file`, fix: 'point model.default at a .gguf file' };
    }
    const provider = providers[parsed.provider];
    if (!provider) return { name, ok: false, detail: `unknown provider "${parsed.provider}"`, fix: `add providers.${parsed.provider} to config.yaml` };
    const key = apiKeyFor(parsed.provider, provider, env);
    if (!key.ok) return { name, ok: false, detail: key.detail, fix: key.fix };
    // Said only after the endpoint answered: a configured URL on a dead port is not a working model.
    const probe = await probeProvider({ type: provider.type, baseUrl: provider.base_url, apiKey: key.value, timeoutMs: PROBE_TIMEOUT_MS });
    if (!probe.ok) return { name, ok: false, detail: `${provider.base_url}${key.detail}: ${probe.message}`, fix: probe.problem === 'unauthorized' ? 'check the API key (`hearth setup`, or its environment variable)' : `start the server, or fix providers.${parsed.provider}.base_url in config.yaml` };
    const listed = probe.models.length === 0 || probe.models.includes(parsed.model);
    return listed
      ? { name, ok: true, detail: `${provider.base_url}${key.detail} answers${probe.models.length > 0 ? ` and lists ${parsed.model}` : ''}` }
      : { name, ok: true, warning: true, detail: `${provider.base_url}${key.detail} answers, but does not list ${parsed.model} (it has ${probe.models.slice(0, 5).join(', ')}${probe.models.length > 5 ? ', …' : ''})`, fix: 'pick a listed model with `hearth setup` or in Settings' };
  } catch (err) {
    return { name, ok: false, detail: errorMessage(err), fix: 'fix model.default / model.fallbacks in config.yaml' };
  }
}

/** Where the provider's key comes from, as the model chain looks for it; `detail` is a phrase for the check's line. */
function apiKeyFor(providerName: string, provider: ProviderConfig, env: NodeJS.ProcessEnv): { ok: true; value: string | undefined; detail: string } | { ok: false; detail: string; fix: string } {
  const keyEnv = provider.api_key_env;
  if (!keyEnv) return { ok: true, value: undefined, detail: ' (no key needed)' };
  if (env[keyEnv]) return { ok: true, value: env[keyEnv], detail: `, key from $${keyEnv}` };
  let stored: string | null = null;
  try {
    stored = getSecret(apiKeyAccount(providerName));
  } catch (err) {
    return { ok: false, detail: `no $${keyEnv} and the keychain is unavailable (${errorMessage(err)})`, fix: `export ${keyEnv}=…` };
  }
  return stored
    ? { ok: true, value: stored, detail: ', key from the OS keychain' }
    : { ok: false, detail: `no API key: $${keyEnv} is not set and none is in the keychain`, fix: `export ${keyEnv}=… or run \`hearth setup\`` };
}

function canWrite(path: string): boolean {
  try {
    accessSync(path, constants.W_OK);
    return true;
  } catch (_err) {
    return false;
  }
}

function isGguf(path: string): boolean {
  const fd = openSync(path, 'r');
  try {
    const head = Buffer.alloc(4);
    readSync(fd, head, 0, 4, 0);
    return head.toString('ascii') === 'GGUF';
  } finally {
    closeSync(fd);
  }
}
