import { destructiveWord } from '../generic-verbs.js';
import { destroysData } from './databases.js';
import { REASONS } from '../reasons.js';
import { flag, runRemoteShell, type Scan } from '../scan.js';
import type { Command, CommandSpec } from './spec.js';

/**
 * Cloud and infrastructure CLIs. Their subcommands are long and many (`aws ec2 terminate-instances`,
 * `heroku apps:destroy`), so beyond the named cases each operand word goes through the destructive-verb
 * lexicon, plus the verbs that stop or restart machines.
 */
const CLOUD_ONLY_VERBS = new Set(['stop', 'reboot', 'restart', 'deallocate', 'suspend', 'disable', 'detach', 'unset', 'rb']);

function cloudVerbs(command: Command, scan: Scan): void {
  const words = command.operands.slice(0, 5).filter((w) => /^[a-z][\w:-]*$/i.test(w));
  const pieces = words.flatMap((w) => w.toLowerCase().split(/[-:_]/));
  if (command.options.some((o) => o === '--help' || o === '--dry-run')) return;
  if (command.args.some(destroysData)) flag(scan, REASONS.sqlDrop);
  if (words.some(destructiveWord) || pieces.some((p) => CLOUD_ONLY_VERBS.has(p)) || command.options.some((o) => destructiveWord(o.replace(/^-+/, '').split('=')[0] as string))) flag(scan, REASONS.cloudDelete);
  // Scaling to zero stops the service as surely as deleting it: `--desired-capacity 0`, `ps:scale web=0`.
  const zero = command.args.some((a, i) => (/^--?[\w-]*(capacity|size|count|replicas|instances|scale)[\w-]*$/i.test(a) && command.args[i + 1] === '0') || /^--?[\w-]*(capacity|size|count|replicas|instances)=0$/i.test(a));
  if (zero || (pieces.includes('scale') && command.operands.some((o) => /^[\w-]+=0$/.test(o)))) flag(scan, REASONS.cloudDelete);
}

/**
 * `aws ssm send-command --parameters commands='…'` (or `'{"commands":["…"]}'`, `commands=["a","b"]`): shell run on
 * the instances.
 */
function ssmCommands(command: Command, scan: Scan): void {
  if (command.name !== 'aws' || command.operands[0] !== 'ssm' || command.operands[1] !== 'send-command') return;
  const args = command.args;
  const parameters = args.flatMap((a, i) => (a === '--parameters' ? [args[i + 1] ?? ''] : a.startsWith('--parameters=') ? [a.slice('--parameters='.length)] : []));
  for (const value of parameters) {
    let commands: string[] = [];
    try {
      const parsed = JSON.parse(value) as { commands?: unknown };
      if (Array.isArray(parsed.commands)) commands = parsed.commands.filter((c): c is string => typeof c === 'string');
    } catch {
      const list = /^commands=(.*)$/s.exec(value)?.[1] ?? '';
      try {
        const parsed = JSON.parse(list) as unknown;
        commands = Array.isArray(parsed) ? parsed.filter((c): c is string => typeof c === 'string') : [list];
      } catch {
        commands = [list];
      }
    }
    for (const code of commands) if (code !== '') runRemoteShell(scan, code);
  }
}

const destroy = REASONS.cloudDelete;

export const CLOUD_SPECS: readonly CommandSpec[] = [
  { names: ['aws', 'gcloud', 'az', 'gsutil', 'heroku', 'fly', 'flyctl', 'vercel', 'netlify', 'doctl', 'linode-cli', 'hcloud', 'oci', 'ibmcloud', 'scw', 'vultr-cli', 'railway', 'render', 'firebase', 'supabase', 'wrangler', 'gh', 'glab', 'eksctl', 'sam', 'cdk', 'serverless', 'sls', 'amplify', 'ecs-cli', 'copilot', 'aliyun', 'tccli', 'nomad', 'consul', 'vault', 'kamal', 'dokku', 'caprover', 'exoscale', 'upcloud', 'openstack', 'nova', 'cf', 'rhc', 'ionosctl', 'civo', 'metal', 'triton'], values: ['--region', '--profile', '--project', '-a', '--app', '--output', '-o', '--query', '--format', '--zone', '-g', '--resource-group', '--subscription', '-R', '--repo', '--scope', '-t', '--token'], check: (c, s) => {
    cloudVerbs(c, s);
    ssmCommands(c, s);
  } },
  { names: ['terraform', 'tofu', 'terragrunt'], rules: [{ sub: 'destroy', reason: destroy }, { sub: 'run-all|run', operand: /^destroy$/, reason: destroy }, { sub: 'apply|plan', option: /^--?destroy$/, unless: /^plan$/, reason: destroy }, { sub: 'state', operand: /^(rm|replace-provider|push)$/, reason: destroy }, { sub: 'workspace', operand: /^delete$/, reason: destroy }, { sub: 'apply', option: /^-?-replace=/, reason: destroy }, { sub: 'force-unlock|taint', reason: destroy }] },
  { names: ['pulumi'], rules: [{ sub: 'destroy|down', reason: destroy }, { sub: 'stack', operand: /^(rm|remove)$/, reason: destroy }, { sub: 'state', operand: /^(delete|unprotect)$/, reason: destroy }] },
];
