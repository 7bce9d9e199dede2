import { destructiveWord } from '../generic-verbs.js';
import { destroysData } from './databases.js';
import { REASONS } from '../reasons.js';
import { flag, type Scan } from '../scan.js';
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

const destroy = REASONS.cloudDelete;

export const CLOUD_SPECS: readonly CommandSpec[] = [
  { names: ['aws', 'gcloud', 'az', 'gsutil', 'heroku', 'fly', 'flyctl', 'vercel', 'netlify', 'doctl', 'linode-cli', 'hcloud', 'oci', 'ibmcloud', 'scw', 'vultr-cli', 'railway', 'render', 'firebase', 'supabase', 'wrangler', 'gh', 'glab', 'eksctl', 'sam', 'cdk', 'serverless', 'sls', 'amplify', 'ecs-cli', 'copilot', 'aliyun', 'tccli', 'nomad', 'consul', 'vault', 'kamal', 'dokku', 'caprover', 'exoscale', 'upcloud', 'openstack', 'nova', 'cf', 'rhc', 'ionosctl', 'civo', 'metal', 'triton'], values: ['--region', '--profile', '--project', '-a', '--app', '--output', '-o', '--query', '--format', '--zone', '-g', '--resource-group', '--subscription', '-R', '--repo', '--scope', '-t', '--token'], check: cloudVerbs },
  { names: ['terraform', 'tofu', 'terragrunt'], rules: [{ sub: 'destroy', reason: destroy }, { sub: 'run-all|run', operand: /^destroy$/, reason: destroy }, { sub: 'apply|plan', option: /^--?destroy$/, unless: /^plan$/, reason: destroy }, { sub: 'state', operand: /^(rm|replace-provider|push)$/, reason: destroy }, { sub: 'workspace', operand: /^delete$/, reason: destroy }, { sub: 'apply', option: /^-?-replace=/, reason: destroy }, { sub: 'force-unlock|taint', reason: destroy }] },
  { names: ['pulumi'], rules: [{ sub: 'destroy|down', reason: destroy }, { sub: 'stack', operand: /^(rm|remove)$/, reason: destroy }, { sub: 'state', operand: /^(delete|unprotect)$/, reason: destroy }] },
];
