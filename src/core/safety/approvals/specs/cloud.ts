import { destructiveWord, isDryRun } from '../generic-verbs.js';
import { destroysData } from './databases.js';
import { REASONS } from '../reasons.js';
import { flag, runRemoteShell, type Scan } from '../scan.js';
import { SECRET_MENTION } from './network.js';
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
  // `aws s3 rm … --dryrun`, `aws ec2 terminate-instances --dry-run`: the call is only checked, nothing changes.
  // `aws s3 rm help` is aws's help page for `s3 rm`; `--help`, `-h` (az) print it too.
  if (command.options.some((o) => o === '--help' || o === '-h' || isDryRun(o)) || (command.name === 'aws' && command.operands.at(-1) === 'help')) return;
  if (makesPublic(command)) flag(scan, REASONS.publicExposure);
  if (grantsAdmin(command)) flag(scan, REASONS.grantAdmin);
  // `doctl registry garbage-collection start`, `… gc run`: garbage collection deletes the images nothing tags.
  if (pieces.includes('garbage') && words.some((w) => /^(start|run|create)$/i.test(w))) flag(scan, REASONS.cloudDelete);
  if (command.args.some(destroysData)) flag(scan, REASONS.sqlDrop);
  // `gsutil rsync -d` (`-n`: a dry run) deletes whatever the destination holds that the source does not.
  if (command.name === 'gsutil' && words.includes('rsync') && command.options.some((o) => /^-[a-zA-Z]*d[a-zA-Z]*$/.test(o)) && !command.options.some((o) => /^-[a-zA-Z]*n[a-zA-Z]*$/.test(o))) flag(scan, REASONS.cloudDelete);
  if (words.some(destructiveWord) || pieces.some((p) => CLOUD_ONLY_VERBS.has(p)) || command.options.some((o) => destructiveWord(o.replace(/^-+/, '').split('=')[0] as string))) flag(scan, REASONS.cloudDelete);
  // Scaling to zero stops the service as surely as deleting it: `--desired-capacity 0`, `ps:scale web=0`.
  const zero = command.args.some((a, i) => (/^--?[\w-]*(capacity|size|count|replicas|instances|scale)[\w-]*$/i.test(a) && command.args[i + 1] === '0') || /^--?[\w-]*(capacity|size|count|replicas|instances)=0$/i.test(a));
  if (zero || (pieces.includes('scale') && command.operands.some((o) => /^[\w-]+=0$/.test(o)))) flag(scan, REASONS.cloudDelete);
}

/** Policies and roles that hold every permission, or the power to grant it: AWS's managed admin policies, GCP's and Azure's owner roles. */
const ADMIN_POLICY = /(?:^|[/:])(AdministratorAccess|IAMFullAccess)$|^(roles\/)?(owner|editor|resourcemanager\.projectIamAdmin|iam\.securityAdmin)$|^(Owner|Contributor|User Access Administrator|Role Based Access Control Administrator)$/;

/**
 * `aws iam attach-user-policy --policy-arn arn:aws:iam::aws:policy/AdministratorAccess`, `gcloud projects
 * add-iam-policy-binding P --role=roles/owner`, `az role assignment create --role Owner`: someone made an administrator.
 */
function grantsAdmin(command: Command): boolean {
  const [service = '', action = '', third = ''] = command.operands;
  const value = (name: string): string[] => command.args.flatMap((a, i) => (command.args[i - 1] === name ? [a] : a.startsWith(`${name}=`) ? [a.slice(name.length + 1)] : []));
  if (command.name === 'aws' && service === 'iam' && /^attach-(user|role|group)-policy$/.test(action)) return value('--policy-arn').some((v) => ADMIN_POLICY.test(v));
  // An inline policy that allows every action (`"Action": "*"`), written on the line.
  if (command.name === 'aws' && service === 'iam' && /^put-(user|role|group)-policy$/.test(action)) return value('--policy-document').some((v) => /"Effect"\s*:\s*"Allow"/.test(v) && /"Action"\s*:\s*(\[\s*)?"\*"/.test(v));
  if (command.name === 'gcloud' && command.operands.includes('add-iam-policy-binding')) return value('--role').some((v) => ADMIN_POLICY.test(v));
  if (command.name === 'az' && service === 'role' && action === 'assignment' && third === 'create') return value('--role').some((v) => ADMIN_POLICY.test(v));
  return false;
}

/** Grantees and canned ACLs that mean everyone on the internet. */
const PUBLIC_GRANT = /^(public-read(-write)?|authenticated-read)$|\b(allUsers|allAuthenticatedUsers|AllUsers|AuthenticatedUsers)\b|acs\.amazonaws\.com\/groups\/global\/AllUsers/;

/**
 * `aws s3api put-bucket-acl --acl public-read`, `aws s3 cp … --acl public-read`, `gsutil acl ch -u AllUsers:R`,
 * `gsutil iam ch allUsers:objectViewer`, `gcloud … add-iam-policy-binding --member=allUsers`: storage opened to anyone.
 */
function makesPublic(command: Command): boolean {
  const values = command.args.flatMap((a, i) => (/^--(acl|grant-[\w-]+|member)$/.test(command.args[i - 1] ?? '') ? [a] : /^--(acl|grant-[\w-]+|member)=/.test(a) ? [a.slice(a.indexOf('=') + 1)] : []));
  if (values.some((v) => PUBLIC_GRANT.test(v))) return true;
  // gsutil's own ACL and IAM edits name the grantee as an operand (`-u AllUsers:R`, `allUsers:objectViewer`).
  return command.name === 'gsutil' && /^(acl|iam|defacl)$/.test(command.operands[0] ?? '') && command.args.some((a) => /^(allUsers|AllUsers|allAuthenticatedUsers|AllAuthenticatedUsers)(:|$)/.test(a));
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
const CLOUD_VALUES = ['--region', '--profile', '--project', '-a', '--app', '--output', '-o', '--query', '--format', '--zone', '-g', '--resource-group', '--subscription', '-R', '--repo', '--scope', '-t', '--token'];
const cloudCheck = (c: Command, s: Scan): void => {
  cloudVerbs(c, s);
  ssmCommands(c, s);
};

export const CLOUD_SPECS: readonly CommandSpec[] = [
  // Serverless and app platforms (modal, koyeb, scalingo, clever) stop apps as the big clouds stop machines.
  { names: ['aws', 'gcloud', 'az', 'gsutil', 'heroku', 'fly', 'flyctl', 'vercel', 'netlify', 'doctl', 'linode-cli', 'hcloud', 'oci', 'ibmcloud', 'scw', 'vultr-cli', 'railway', 'render', 'firebase', 'supabase', 'wrangler', 'glab', 'eksctl', 'sam', 'cdk', 'serverless', 'sls', 'amplify', 'ecs-cli', 'copilot', 'aliyun', 'tccli', 'nomad', 'consul', 'vault', 'kamal', 'dokku', 'caprover', 'exoscale', 'upcloud', 'openstack', 'nova', 'cf', 'rhc', 'ionosctl', 'civo', 'metal', 'triton', 'modal', 'koyeb', 'scalingo', 'clever'], values: CLOUD_VALUES, check: cloudCheck },
  // `gh repo archive` makes the repository read-only for everyone (glab's `repo archive` only downloads one); a gist or a
  // release is published from the files named, so a secret among them leaves the machine.
  { names: ['gh'], values: CLOUD_VALUES, check: cloudCheck, rules: [
    { sub: 'repo archive', reason: destroy },
    { sub: 'gist|release create|edit|upload', operand: SECRET_MENTION, reason: REASONS.exfiltration },
  ] },
  { names: ['terraform', 'tofu', 'terragrunt'], rules: [{ sub: 'destroy', reason: destroy }, { sub: 'run-all|run', operand: /^destroy$/, reason: destroy }, { sub: 'apply|plan', option: /^--?destroy$/, unless: /^plan$/, reason: destroy }, { sub: 'state', operand: /^(rm|replace-provider|push)$/, reason: destroy }, { sub: 'workspace', operand: /^delete$/, reason: destroy }, { sub: 'apply', option: /^-?-replace=/, reason: destroy }, { sub: 'force-unlock|taint', reason: destroy }] },
  { names: ['pulumi'], rules: [{ sub: 'destroy|down', unless: /^--preview-only$/, reason: destroy }, { sub: 'stack', operand: /^(rm|remove)$/, reason: destroy }, { sub: 'state', operand: /^(delete|unprotect)$/, reason: destroy }] },
];
