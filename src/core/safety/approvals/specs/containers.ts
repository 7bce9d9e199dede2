import { DRY_RUN } from '../generic-verbs.js';
import { HARDLINE_REASONS, REASONS } from '../reasons.js';
import { homeRelative } from '../paths.js';
import { flag, type Scan } from '../scan.js';
import { isSensitivePath } from '../write-targets.js';
import { valuesOf, type Command, type CommandSpec, type Rule } from './spec.js';

/** Containers and clusters: deleting containers, images, volumes, cluster resources or releases asks. */
const gone = REASONS.containerDelete;
const DOCKER_RULES: readonly Rule[] = [
  { sub: 'rm|rmi|kill', reason: gone },
  { sub: 'container|image|volume|network|system|builder|buildx|context|secret|config|service|stack|node|plugin|swarm|machine|pod|manifest', operand: /^(rm|remove|prune|kill|leave|delete)$/, reason: gone },
  { sub: 'compose|stack', operand: /^(rm|kill)$/, reason: gone },
  { sub: 'compose', operand: /^down$/, option: /^(-v|--volumes|--rmi(=.*)?)$/, reason: gone },
  { sub: 'volume|system|image|container|network|builder', operand: /^prune$/, reason: gone },
  { sub: 'system|machine', operand: /^(reset|rm)$/, reason: gone },
];

/** The host's root filesystem, or the Docker socket (which is root on the host). */
const HOST_MOUNT = /^(\/|\/var\/run\/docker\.sock|\/run\/docker\.sock|\/etc|\/root|\/home|\/Users)(:|$)/;

function hostAccess(command: Command, scan: Scan): void {
  if (!['run', 'create'].includes(command.operands[0] ?? '')) return;
  const args = command.args;
  const access = args.some(
    (a, i) =>
      a === '--privileged' ||
      /^--(pid|ipc|userns|network|net|uts)=host$/.test(a) ||
      /^--cap-add=(ALL|SYS_ADMIN|SYS_PTRACE|SYS_MODULE)$/i.test(a) ||
      ((a === '-v' || a === '--volume' || a === '--mount') && HOST_MOUNT.test(args[i + 1] ?? '')) ||
      (/^(-v|--volume=)/.test(a) && HOST_MOUNT.test(a.replace(/^(-v|--volume=)/, ''))),
  );
  // `-v "$HOME":/home/host`, `-v ~/.ssh:/root/.ssh`: the user's home, or the keys and credentials in it, handed to
  // whatever the image runs (a project or cache folder in it, `-v ~/.npm:/root/.npm`, is not).
  const reachesHome = bindMounts(args).some(({ host }) => {
    const inHome = homeRelative(host, scan.paths);
    return inHome === '~' || (inHome !== null && isSensitivePath(host, scan));
  });
  if (access || reachesHome) flag(scan, REASONS.hostContainer);
}

/** `docker run` options that take no value; every other option does (`-e X`, `--name n`, `-p 80:80`). */
const RUN_FLAGS = /^(-[ditPq]+|--(rm|init|privileged|read-only|detach|interactive|tty|no-healthcheck|oom-kill-disable|quiet|publish-all|sig-proxy|no-deps|service-ports|use-aliases|build|remove-orphans|no-TTY)|-T)$/;

/**
 * The command a new container runs: `docker run [opts] IMAGE cmd…` (`--entrypoint X` first), `docker compose run
 * [opts] SERVICE cmd…`, `kubectl run NAME … -- cmd…`. Null when there is none.
 */
function containerCommand(command: Command): string[] | null {
  const args = command.args;
  const kube = ['kubectl', 'oc', 'k'].includes(command.name);
  const [first, second] = command.operands;
  if (!(first === 'run' || (kube && first === 'debug') || (!kube && first === 'compose' && second === 'run'))) return null;
  const runAt = args.indexOf(first === 'debug' ? 'debug' : 'run');
  if (kube) {
    const dashes = args.indexOf('--', runAt);
    return dashes === -1 ? null : args.slice(dashes + 1);
  }
  let entrypoint: string | undefined;
  for (let i = runAt + 1; i < args.length; i += 1) {
    const a = args[i] as string;
    if (a === '--') return args.slice(i + 1);
    if (!a.startsWith('-')) {
      const rest = args.slice(i + 1);
      return entrypoint === undefined ? rest : [entrypoint, ...rest];
    }
    if (a === '--entrypoint') entrypoint = args[i + 1];
    else if (a.startsWith('--entrypoint=')) entrypoint = a.slice('--entrypoint='.length);
    if (!RUN_FLAGS.test(a) && !a.includes('=')) i += 1;
  }
  return null;
}

/**
 * What a new container runs is classified, remote as through ssh; what would be hardline here stays dangerous there
 * (a fresh container's root is its own), under a reason of its own. Host access is judged separately (hostAccess).
 */
function containedRun(command: Command, scan: Scan): void {
  const inner = containerCommand(command);
  if (inner === null || inner.length === 0 || scan.depth > 4) return;
  // What the container reaches of the host is judged as on the host: a bind-mounted host path, or the host itself
  // through `nsenter -t 1` when the container shares the host's pids and may enter its namespaces.
  const onHost = hostReading(command, inner);
  if (onHost !== null) {
    scan.depth += 1;
    try {
      scan.runArgv(onHost);
    } finally {
      scan.depth -= 1;
    }
  }
  const before = new Set(scan.found.keys());
  const remote = scan.remote;
  scan.remote = true;
  scan.depth += 1;
  try {
    scan.runArgv(inner);
  } finally {
    scan.remote = remote;
    scan.depth -= 1;
  }
  containHardline(scan, before);
}

/** Wrappers that run their command inside an existing container: `docker exec app …`, `kubectl exec pod -- …`. */
// `adb shell`: a connected Android device is another machine in the same way; what would wreck this one wrecks that
// device, and it asks (round cmd16a took its hardline-labelled lines out as arguable, SPLITS.md).
export const CONTAINER_EXEC_WRAPPERS: ReadonlySet<string> = new Set(['docker', 'podman', 'nerdctl', 'docker-compose', 'podman-compose', 'kubectl', 'oc', 'k', 'adb']);

/**
 * What the container's command found that would be hardline on this machine (found since `before`) is the container's
 * own wreck, not the host's: it asks, under containedHardline. Host access is judged on its own (hostAccess).
 */
export function containHardline(scan: Scan, before: ReadonlySet<string>): void {
  for (const reason of [...scan.found.keys()]) {
    if (before.has(reason) || !HARDLINE_REASONS.has(reason)) continue;
    scan.found.delete(reason);
    flag(scan, REASONS.containedHardline);
  }
}

/** `-v SRC:DST[:ro]`, `--volume=SRC:DST`, `--mount type=bind,source=SRC,target=DST`: host paths by container path. */
function bindMounts(args: readonly string[]): Array<{ host: string; inside: string }> {
  const mounts: Array<{ host: string; inside: string }> = [];
  for (const [i, a] of args.entries()) {
    const volume = a === '-v' || a === '--volume' ? args[i + 1] : /^(-v|--volume=)(.+)$/.exec(a)?.[2];
    const bind = /^(\/[^:]*):(\/[^:]*)(:.*)?$/.exec(volume ?? '');
    if (bind !== null) mounts.push({ host: bind[1] as string, inside: bind[2] as string });
    const mount = a === '--mount' ? args[i + 1] : a.startsWith('--mount=') ? a.slice('--mount='.length) : undefined;
    if (mount !== undefined && /(^|,)type=bind(,|$)/.test(mount)) {
      const field = (names: string): string | undefined => new RegExp(`(?:^|,)(?:${names})=([^,]+)`).exec(mount)?.[1];
      const host = field('source|src');
      const inside = field('target|destination|dst');
      if (host?.startsWith('/') === true && inside?.startsWith('/') === true) mounts.push({ host, inside });
    }
  }
  return mounts;
}

/**
 * The container's command as the host sees it, or null when it reaches nothing of the host: `rm -rf /host/*`
 * with `-v /:/host` is `rm -rf /*`; `nsenter -t 1 … reboot` with `--privileged --pid=host` is `reboot` on the host.
 */
function hostReading(command: Command, inner: readonly string[]): string[] | null {
  const args = command.args;
  const privileged = args.includes('--privileged');
  const hostPid = args.some((a, i) => a === '--pid=host' || (a === '--pid' && args[i + 1] === 'host'));
  if (privileged && hostPid && inner[0] === 'nsenter' && inner.some((a, i) => /^(-t|--target)$/.test(inner[i - 1] ?? '') ? a === '1' : /^(-t1|--target=1)$/.test(a))) return [...inner];
  const mounts = bindMounts(args).sort((a, b) => b.inside.length - a.inside.length);
  let mapped = false;
  // A container path anywhere a path can start in a word: the word itself, or inside the code of
  // `sh -c 'rm -rf /host/etc'` (after a space, quote, `=` or an operator). `-v /:/host`: `/host` alone is `/`.
  const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const readers = mounts
    .filter((m) => m.inside !== '/')
    .map((m) => ({ re: new RegExp(`(^|[\\s'"=;(|&])${escape(m.inside.replace(/\/$/, ''))}(?=(/)|$|[\\s'";)|&])`, 'g'), host: m.host.replace(/\/$/, '') }));
  // `-v /dev:/dev`: a path mounted at its own name maps to itself, and `of=/dev/sda` is still the host's disk.
  const words = inner.map((word) => {
    let out = word;
    for (const { re, host } of readers) {
      out = out.replace(re, (_all, before: string, slash: string | undefined) => {
        mapped = true;
        return `${before}${host === '' && slash === undefined ? '/' : host}`;
      });
    }
    return out;
  });
  return mapped ? words : null;
}

const cluster = REASONS.cloudDelete;

/** A pod spec that shares the node's pids, network or IPC, runs privileged, or mounts a host path. */
const HOST_POD = /"(?:hostPID|hostNetwork|hostIPC|privileged)"\s*:\s*true|"hostPath"\s*:/;
/**
 * Patches that arm a deletion or take a guard away: a volume's reclaim policy set to Delete (deleting its claim
 * then deletes the data), finalizers cleared (the object goes without its cleanup), replicas set to 0.
 */
const PATCH_DESTROYS: readonly RegExp[] = [
  /"?persistentVolumeReclaimPolicy"?\s*:\s*"?Delete\b/,
  /"?finalizers"?\s*:\s*(?:null|\[\s*\])/,
  /"op"\s*:\s*"remove"\s*,\s*"path"\s*:\s*"\/metadata\/finalizers/,
  /"?replicas"?\s*:\s*0\b/,
];

/**
 * `kubectl run --overrides='{"spec":{"hostPID":true,…}}'` is `docker run --pid=host`; `kubectl debug node/NAME` starts
 * a pod in the node's namespaces with its root filesystem at /host. `kubectl patch … -p '{…}'` is judged by what it sets.
 */
function kubectlCheck(command: Command, scan: Scan): void {
  const [sub, target] = command.operands;
  if (sub === 'run' && [...valuesOf(command, '--overrides'), ...command.args.filter((a, i) => command.args[i - 1] === '--overrides')].some((o) => HOST_POD.test(o))) flag(scan, REASONS.hostContainer);
  if (sub === 'debug' && /^(node|nodes|no)\//.test(target ?? '')) flag(scan, REASONS.hostContainer);
  if (sub === 'patch') {
    const patches = [...valuesOf(command, '-p', '--patch'), ...command.args.filter((a, i) => /^(-p|--patch)$/.test(command.args[i - 1] ?? ''))];
    if (patches.some((p) => PATCH_DESTROYS.some((re) => re.test(p))) && !command.args.some((a) => DRY_RUN.test(a))) flag(scan, cluster);
  }
  containedRun(command, scan);
}
const KUBECTL_VALUES = ['-n', '--namespace', '--context', '-l', '--selector', '-f', '--filename', '-o', '--output', '-c', '--container', '--kubeconfig', '--cluster', '--user', '-s', '--server', '--field-selector', '--grace-period', '--timeout'];

export const CONTAINER_SPECS: readonly CommandSpec[] = [
  { names: ['docker', 'podman', 'nerdctl', 'docker-compose', 'podman-compose'], values: ['-H', '--host', '--context', '-c', '--config', '-l', '--log-level', '-f', '--file', '-p', '--project-name', '--filter', '-e', '--env', '-v', '--volume', '--name', '-w', '--workdir', '-u', '--user', '--network', '--entrypoint', '--mount', '--platform'], rules: DOCKER_RULES, check: (c, s) => {
    hostAccess(c, s);
    containedRun(c, s);
    if (c.name.endsWith('-compose') && (c.operands[0] === 'rm' || (c.operands[0] === 'down' && c.options.some((o) => /^(-v|--volumes)$/.test(o))))) flag(s, gone);
  } },
  // `--dry-run=client|server` only shows what would change (`--dry-run=none` is a real run).
  { names: ['kubectl', 'oc', 'k'], values: KUBECTL_VALUES, check: kubectlCheck, rules: [
    // The kubeconfig's record of how to reach a cluster, and as whom.
    { sub: 'config', operand: /^(delete-context|delete-cluster|delete-user|unset)$/, reason: cluster },
    { sub: 'delete', unless: DRY_RUN, reason: cluster },
    { sub: 'drain|cordon|taint', unless: DRY_RUN, reason: cluster },
    { sub: 'scale', option: /^--replicas=0$/, unless: DRY_RUN, reason: cluster },
    { sub: 'replace', option: /^--force$/, unless: DRY_RUN, reason: cluster },
    { sub: 'apply', option: /^--prune$/, unless: DRY_RUN, reason: cluster },
    { sub: 'rollout', operand: /^undo$/, unless: DRY_RUN, reason: cluster },
    // `kubectl create clusterrolebinding x --clusterrole=cluster-admin --user=…`: someone made the cluster's administrator.
    { sub: 'create', operand: /^(clusterrolebinding|rolebinding)$/, option: /^--clusterrole=cluster-admin$/, unless: DRY_RUN, reason: REASONS.grantAdmin },
  ] },
  // The CRI's own client on a Kubernetes node: `rmp` removes pods, `stopp` stops them (`-a`: all of them).
  { names: ['crictl'], values: ['-r', '--runtime-endpoint', '-i', '--image-endpoint', '-t', '--timeout', '-c', '--config'], rules: [{ sub: 'rm|rmp|rmi|stop|stopp', reason: REASONS.containerDelete }] },
  { names: ['helm'], values: ['-n', '--namespace', '--kube-context', '-f', '--values', '--set', '--version'], rules: [{ sub: 'uninstall|delete|del|un|rollback', unless: DRY_RUN, reason: cluster }] },
];
