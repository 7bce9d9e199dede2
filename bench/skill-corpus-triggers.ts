/**
 * What a small instruction model would answer to the trigger prompt (src/core/skills/trigger-phrasings.ts) for
 * each skill of the generated library, written down beforehand so the benchmark is deterministic: the scripted
 * model (`scriptedTriggerModel`) answers from this text, through the real prompt and the real parser.
 *
 * Written after the frozen held-out set (test/fixtures/skill-trigger-held-out/) was committed and without
 * opening it again, from the skill material alone (bench/skill-corpus-domains.ts) and general knowledge of the
 * tools: per subject, the names and tools a model associates with it (MariaDB for MySQL, kubectl for
 * Kubernetes); per task, how people ask for it (symptoms, goals, synonyms). A skill's phrasings pair each task
 * phrasing with one of its subject's names in turn, as a model that knows both would. Not tuned on any score.
 */
import type { ChatModel, ChatRequest, ModelEvent } from '../src/core/llm/types.js';
import { DOMAINS } from './skill-corpus-domains.js';

/** Names, products and tools a model associates with each subject, beyond the corpus's own label and aliases. */
const SUBJECT_KNOWLEDGE: Record<string, string[]> = {
  postgres: ['postgresql', 'psql', 'pg_dump', 'supabase', 'rds postgres'],
  mysql: ['mariadb', 'percona', 'innodb', 'aurora mysql', 'mysqldump'],
  sqlite: ['sqlite3', 'db file', 'embedded database', 'litestream'],
  mongodb: ['mongo', 'mongod', 'atlas', 'mongoose', 'document database'],
  docker: ['dockerfile', 'docker compose', 'container image', 'buildx'],
  podman: ['podman', 'buildah', 'rootless containers', 'quadlet'],
  kubernetes: ['k8s', 'kubectl', 'helm', 'pods', 'eks', 'gke'],
  nomad: ['nomad job', 'hashicorp nomad', 'nomad allocation', 'consul'],
  'github-actions': ['github workflow', 'workflow yaml', 'gh actions', 'actions runner'],
  'gitlab-ci': ['.gitlab-ci.yml', 'gitlab pipeline', 'gitlab runner', 'gitlab jobs'],
  jenkins: ['jenkinsfile', 'jenkins pipeline', 'jenkins agents', 'groovy pipeline'],
  circleci: ['circleci config', 'circle ci', 'orbs', 'circleci workflow'],
  aws: ['amazon web services', 'ec2', 's3', 'aws account', 'cloudwatch'],
  gcp: ['google cloud platform', 'gce', 'cloud storage bucket', 'gcp project'],
  azure: ['microsoft azure', 'azure subscription', 'entra id', 'blob storage'],
  hetzner: ['hetzner cloud', 'hcloud', 'hetzner vps', 'hetzner server'],
  git: ['git repo', 'commits', 'git cli', 'branches'],
  github: ['github repo', 'pull requests', 'gh cli', 'github.com'],
  gitlab: ['gitlab repo', 'merge requests', 'gitlab.com', 'self-hosted gitlab'],
  gitea: ['gitea', 'forgejo', 'self-hosted git', 'gitea repo'],
  python: ['python3', 'pip', 'pyproject', 'pypi', 'venv'],
  typescript: ['node.js', 'npm', 'tsconfig', 'javascript', 'deno'],
  rust: ['cargo', 'crates', 'rustc', 'clippy'],
  go: ['golang', 'go modules', 'goroutines', 'go toolchain'],
  react: ['react', 'jsx', 'next.js', 'react hooks'],
  vue: ['vue', 'vue 3', 'nuxt', 'composition api'],
  svelte: ['sveltekit', 'svelte components', 'svelte store'],
  angular: ['angular', 'angular cli', 'rxjs', 'ng'],
  'linux-server': ['ubuntu server', 'debian box', 'vps', 'ssh server', 'linux host'],
  'web-app': ['website', 'web app', 'web service', 'site'],
  laptop: ['macbook', 'work laptop', 'developer machine', 'mac', 'windows laptop'],
  wordpress: ['wordpress', 'wp', 'wp-admin', 'wordpress plugins', 'woocommerce'],
  prometheus: ['prometheus', 'promql', 'alertmanager', 'node exporter'],
  grafana: ['grafana', 'grafana panels', 'loki', 'grafana cloud'],
  datadog: ['datadog', 'datadog apm', 'dd agent', 'datadog monitors'],
  opentelemetry: ['otel', 'opentelemetry sdk', 'jaeger', 'spans', 'otel collector'],
  'api-reference': ['api docs', 'openapi spec', 'swagger', 'endpoint docs'],
  readme: ['readme', 'readme.md', 'project docs', 'getting started guide'],
  changelog: ['changelog', 'release notes', "what's new", 'changelog.md'],
  runbook: ['runbook', 'playbook', 'on-call guide', 'sop'],
  gmail: ['gmail', 'email', 'google mail', 'inbox'],
  outlook: ['outlook', 'office 365 mail', 'exchange email', 'work email'],
  slack: ['slack', 'slack channel', 'slack workspace'],
  discord: ['discord', 'discord server', 'discord channel'],
  'google-calendar': ['google calendar', 'gcal', 'calendar'],
  notion: ['notion', 'notion page', 'notion database'],
  todoist: ['todoist', 'to-do app', 'task list'],
  obsidian: ['obsidian', 'obsidian vault', 'markdown notes app'],
  pandas: ['pandas', 'dataframe', 'jupyter notebook', 'csv in python'],
  excel: ['excel', 'spreadsheet', 'xlsx', 'google sheets'],
  bigquery: ['bigquery', 'bq', 'data warehouse', 'sql warehouse'],
  duckdb: ['duckdb', 'parquet files', 'local sql', 'duckdb table'],
  pytorch: ['pytorch', 'torch', 'neural network', 'cuda training'],
  'llama-cpp': ['llama.cpp', 'gguf', 'local llm', 'ollama model'],
  huggingface: ['hugging face', 'transformers', 'hf model', 'bert', 'llm'],
  sklearn: ['scikit-learn', 'sklearn', 'classifier', 'regression model'],
  ffmpeg: ['ffmpeg', 'video', 'mp4', 'movie file'],
  imagemagick: ['imagemagick', 'photos', 'images', 'pictures'],
  audacity: ['audio', 'podcast', 'mp3', 'recording', 'voice memo'],
  gifs: ['gif', 'animated gif', 'animation', 'meme'],
  pdf: ['pdf', 'pdf file', 'scanned document', 'acrobat'],
  docx: ['word doc', 'docx', 'microsoft word', 'manuscript'],
  pptx: ['powerpoint', 'slides', 'slide deck', 'presentation', 'keynote'],
  markdown: ['markdown', 'md files', 'notes', 'plain text notes'],
  'bank-statements': ['bank statement', 'bank export', 'transactions', 'credit card statement'],
  invoices: ['invoices', 'bills', 'payments', 'accounts receivable'],
  receipts: ['receipts', 'expenses', 'purchase slips', 'expense report'],
  stocks: ['stock portfolio', 'shares', 'brokerage account', 'investments', 'etfs'],
  dns: ['dns', 'domain', 'dns records', 'nameservers'],
  wireguard: ['wireguard', 'vpn', 'wg tunnel', 'vpn tunnel'],
  nginx: ['nginx', 'reverse proxy', 'web server', 'nginx config'],
  cloudflare: ['cloudflare', 'cloudflare cdn', 'cloudflare proxy', 'cf'],
  'home-assistant': ['home assistant', 'hass', 'smart home hub', 'zigbee', 'z-wave'],
  hue: ['hue lights', 'philips hue', 'smart bulbs', 'lamps'],
  thermostat: ['thermostat', 'heating', 'nest', 'ecobee', 'boiler'],
  cameras: ['security cameras', 'doorbell camera', 'ring', 'cctv', 'ip camera'],
  meals: ['meals', 'dinners', 'recipes', 'cooking'],
  workouts: ['workouts', 'gym', 'running', 'training plan', 'fitness'],
  travel: ['trip', 'vacation', 'holiday', 'travel'],
  learning: ['language learning', 'spanish', 'vocabulary', 'flashcards', 'duolingo'],
};

/** How people ask for each task (`<domain>.<task>`); `{S}` is one of the subject's names. */
const TASK_PHRASINGS: Record<string, string[]> = {
  'databases.backup': ['back up my {S} database', 'restore {S} from a dump', 'nightly {S} dump', 'recover deleted {S} data', 'snapshot {S} before upgrading', 'point in time recovery for {S}', 'copy of the {S} data offsite'],
  'databases.slow-queries': ['{S} query is slow', 'speed up {S} queries', 'missing index in {S}', 'explain plan for {S}', '{S} high cpu usage', 'full table scan in {S}', '{S} performance tuning'],
  'databases.migrations': ['add a column in {S}', 'alter table in {S} safely', 'schema change without downtime in {S}', 'versioned {S} migrations', 'rename a {S} column', 'migration tool for {S}'],
  'databases.replication': ['{S} read replica', 'standby {S} server', '{S} failover', 'primary and secondary {S}', '{S} high availability', 'copy {S} to a second server', '{S} cluster with replicas'],
  'containers.image-size': ['{S} image too big', 'smaller {S} image', 'multi-stage build for {S}', 'slim base image in {S}', 'reduce {S} image layers', '{S} pulls are slow'],
  'containers.crashloop': ['{S} container keeps restarting', '{S} crash loop', '{S} out of memory killed', '{S} exit code 137', '{S} container dies on start', 'debug a crashing {S} workload'],
  'containers.networking': ['{S} containers cannot talk to each other', 'expose a port with {S}', '{S} service discovery', '{S} dns between services', '{S} port mapping', '{S} network bridge'],
  'containers.secrets': ['pass an api key to {S}', '{S} environment variables', 'keep passwords out of the {S} image', '{S} secrets management', 'inject credentials into {S}', 'vault secrets for {S}'],
  'ci.caching': ['{S} builds are slow', 'cache dependencies in {S}', 'speed up the {S} pipeline', '{S} reinstalls packages every run', 'cache node_modules in {S}', 'build cache for {S}'],
  'ci.flaky-tests': ['flaky tests in {S}', 'tests randomly fail on {S}', 'retry failing {S} jobs', 'intermittent {S} failures', 'quarantine unstable tests in {S}', 'tests pass locally but fail on {S}'],
  'ci.release': ['release on tag with {S}', 'publish a package from {S}', 'automate versioning in {S}', 'build release artifacts in {S}', 'changelog on release with {S}', 'deploy when a version is tagged in {S}'],
  'ci.matrix': ['test several versions in {S}', '{S} build matrix', 'run {S} on windows mac and linux', 'multiple node versions on {S}', 'test python versions on {S}', 'cross platform {S} jobs'],
  'cloud.cost-report': ['{S} bill went up', 'cut {S} costs', 'what are we paying for on {S}', 'unused {S} resources', '{S} spending by service', '{S} invoice breakdown'],
  'cloud.iam-audit': ['who has admin on {S}', '{S} permissions review', 'least privilege in {S}', 'too many {S} roles', '{S} access audit', 'remove excess {S} access'],
  'cloud.static-site': ['host a static website on {S}', 'landing page on {S} storage', '{S} cdn for a site', 'https for a static site on {S}', 'custom domain on {S} hosting', 'deploy html to {S}'],
  'cloud.terraform': ['terraform for {S}', 'infrastructure as code on {S}', 'import {S} resources into terraform', '{S} terraform modules', 'stop clicking in the {S} console', 'reproducible {S} environments'],
  'git.history-cleanup': ['remove a secret from {S} history', 'purge large files from {S}', 'rewrite {S} history', 'delete a committed password in {S}', '{S} repo too big', 'scrub a file from every {S} commit'],
  'git.conflicts': ['{S} merge conflict', 'resolve conflicts in {S}', '{S} rebase stopped', 'conflict markers in {S}', 'fix a failed {S} merge', 'both versions in the file after {S} merge'],
  'git.bisect': ['find the commit that broke it in {S}', '{S} bisect', 'which {S} change caused the bug', 'regression between two {S} versions', 'track down a bad {S} commit'],
  'git.review-bot': ['automatic review comments on {S}', 'bot for {S} pull requests', 'label {S} pull requests automatically', 'enforce review rules on {S}', '{S} pr automation', 'auto comment on {S} merge requests'],
  'languages.packaging': ['publish a {S} library', 'package my {S} code', 'release to the {S} registry', 'make {S} code installable', '{S} package metadata', 'upload a {S} package'],
  'languages.profiling': ['{S} program is slow', 'profile {S} cpu usage', '{S} memory leak', 'find hot spots in {S}', '{S} uses too much ram', 'flame graph for {S}'],
  'languages.testing': ['write unit tests for {S}', '{S} test coverage', '{S} test fixtures', 'add tests to {S} code', 'mock dependencies in {S} tests', '{S} testing framework'],
  'languages.upgrade': ['upgrade {S} to the latest version', '{S} end of life', 'move to a newer {S} release', '{S} deprecation warnings', 'migrate old {S} code', '{S} version bump'],
  'frontend.accessibility': ['{S} accessibility audit', 'screen reader support in {S}', 'keyboard navigation in {S}', 'wcag issues in {S}', 'aria attributes in {S}', 'make {S} usable for blind users'],
  'frontend.bundle-size': ['{S} bundle too large', 'code splitting in {S}', 'tree shaking for {S}', 'slow first load of the {S} app', 'lazy load {S} routes', 'reduce {S} javascript size'],
  'frontend.state': ['{S} state management', 'prop drilling in {S}', 'share data between {S} components', 'global store for {S}', 'data fetching in {S}', 'cache server data in {S}'],
  'frontend.component-tests': ['test {S} components', '{S} testing library', 'unit test a {S} component', 'simulate clicks in {S} tests', '{S} ui regression tests', 'render {S} components in tests'],
  'security.hardening': ['secure a new {S}', 'lock down {S}', '{S} security checklist', 'harden {S}', 'firewall and updates for {S}', 'security baseline for {S}'],
  'security.incident': ['{S} got hacked', 'someone broke into {S}', 'malware on {S}', 'suspicious process on {S}', 'respond to a breach of {S}', '{S} compromised what now'],
  'security.vuln-scan': ['scan {S} for vulnerabilities', 'cve check for {S}', 'outdated software on {S}', '{S} security scan', 'known holes in {S}', 'vulnerability report for {S}'],
  'security.secret-scan': ['leaked api keys in {S}', 'find passwords in {S}', 'scan {S} for tokens', 'credentials exposed in {S}', 'detect secrets in {S}', 'hardcoded keys in {S}'],
  'observability.alerts': ['{S} alert rules', 'too many {S} alerts', 'page on high error rate with {S}', 'noisy {S} alerts', '{S} on-call notifications', 'alert when latency is high in {S}'],
  'observability.dashboards': ['{S} dashboard', 'service health screen in {S}', 'latency and errors in {S}', 'graph metrics in {S}', '{S} panels for the api', 'visualise {S} metrics'],
  'observability.tracing': ['distributed tracing with {S}', 'trace requests across services with {S}', 'which service is slow {S}', 'instrument services with {S}', '{S} spans', 'follow a request through microservices with {S}'],
  'observability.log-queries': ['search logs in {S}', 'find errors in {S} logs', '{S} log query', 'correlate logs across hosts in {S}', 'grep logs in {S}', 'filter {S} logs by service'],
  'docs.draft': ['write {S} from scratch', 'draft {S} for the project', 'generate {S} from the code', 'create {S}', 'document the project in {S}'],
  'docs.review': ['improve {S}', 'edit {S} for clarity', '{S} is outdated', 'proofread {S}', 'make {S} shorter and accurate', 'fix mistakes in {S}'],
  'docs.translate': ['translate {S}', '{S} in other languages', 'localise {S}', 'keep translated {S} in sync', '{S} in german and french'],
  'communication.triage': ['too many unread in {S}', 'sort my {S} inbox', 'what needs my attention in {S}', 'prioritise {S} messages', 'clean up {S} inbox', 'urgent messages in {S}'],
  'communication.draft-reply': ['reply to a {S} message', 'write a polite {S} answer', 'draft a response in {S}', 'answer a customer on {S}', 'respond to my boss on {S}'],
  'communication.thread-summary': ['summarize a {S} thread', 'catch up on {S}', 'what was decided in {S}', 'action items from {S} discussion', 'tl;dr of the {S} conversation'],
  'communication.announce': ['announce on {S}', 'schedule a {S} message', 'post news to {S}', 'send an announcement through {S}', 'broadcast to the team on {S}'],
  'productivity.weekly-plan': ['plan my week in {S}', 'schedule deadlines in {S}', 'organize next week with {S}', 'time blocking in {S}', 'weekly review in {S}'],
  'productivity.meeting-notes': ['meeting notes in {S}', 'turn a transcript into {S} notes', 'save call takeaways in {S}', 'action items from a meeting into {S}', 'minutes of the meeting in {S}'],
  'productivity.habits': ['habit tracker in {S}', 'track a daily streak in {S}', 'build a routine with {S}', 'daily habit in {S}', 'keep score of habits in {S}'],
  'data-analysis.cleaning': ['clean data in {S}', 'remove duplicates in {S}', 'missing values in {S}', 'fix column types in {S}', 'messy {S} export', 'tidy up {S} data'],
  'data-analysis.pivot': ['pivot table in {S}', 'totals by month in {S}', 'group by category in {S}', 'aggregate sales in {S}', 'summary report from {S}', 'sum per region in {S}'],
  'data-analysis.charts': ['chart from {S}', 'plot {S} data', 'graph trends in {S}', 'histogram from {S}', 'visualize {S} numbers', 'bar chart of {S} data'],
  'data-analysis.forecast': ['forecast from {S}', 'predict next month with {S}', 'time series in {S}', 'seasonal trend in {S}', 'projection from {S} history', 'sales forecast in {S}'],
  'ml.fine-tune': ['fine-tune a {S} model', 'train {S} on my own data', 'custom dataset for {S}', 'adapt a {S} model to our domain', 'transfer learning with {S}'],
  'ml.quantize': ['quantize a {S} model', '{S} model does not fit in gpu memory', 'run {S} on a small gpu', '4-bit {S} model', 'shrink a {S} model for inference', 'out of vram with {S}'],
  'ml.evaluate': ['evaluate a {S} model', 'compare {S} models', 'accuracy metrics for {S}', 'test set score for {S}', 'error analysis of a {S} model', 'is the new {S} model better'],
  'media.convert': ['convert {S} to another format', 'change {S} format', 'my device cannot open this {S}', 'turn {S} into a different format', 'batch convert {S}', 'export {S} as another type'],
  'media.compress': ['compress {S}', '{S} file too large', 'make {S} smaller', 'reduce {S} size for email', 'shrink {S} without losing quality'],
  'media.trim': ['trim {S}', 'cut the start of {S}', 'join {S} clips', 'remove a part of {S}', 'edit {S} length', 'split {S} into clips'],
  'documents.extract': ['extract text from {S}', 'get tables out of {S}', 'copy data from {S}', 'parse {S} contents', 'read the numbers in {S}'],
  'documents.merge': ['merge {S}', 'split {S}', 'combine several {S}', 'reorder pages in {S}', 'join {S} into one'],
  'documents.convert': ['convert {S}', 'export {S} to another format', 'turn {S} into html', 'save {S} as a different type', '{S} to pdf'],
  'finance.categorize': ['categorize {S}', 'budget from {S}', 'where does my money go {S}', 'sort {S} into categories', 'monthly spending from {S}'],
  'finance.reconcile': ['reconcile {S}', 'match {S} with the books', 'month end close for {S}', 'find mismatches in {S}', '{S} against accounting records'],
  'finance.tax-prep': ['{S} for the tax return', 'tax deductions from {S}', 'prepare {S} for the accountant', 'tax season {S}', 'yearly taxes with {S}'],
  'networking.troubleshoot': ['{S} not working', '{S} connection problems', 'cannot reach the site through {S}', 'debug {S} connectivity', '{S} timeouts', '{S} is down'],
  'networking.setup': ['set up {S}', 'configure {S} from scratch', 'install {S} on a new server', '{S} for my home lab', 'first time {S} configuration'],
  'networking.tls': ['https certificate for {S}', '{S} ssl certificate expired', 'renew certs on {S}', "let's encrypt on {S}", '{S} not secure warning', 'tls setup for {S}'],
  'home.automation': ['automate {S}', '{S} routine at sunset', 'turn {S} off when we leave', '{S} schedule based on presence', 'motion sensor rule for {S}'],
  'home.energy': ['save energy with {S}', 'lower the power bill with {S}', '{S} energy schedule', 'use less electricity with {S}', 'reduce heating costs with {S}'],
  'home.troubleshoot': ['{S} offline', '{S} keeps disconnecting', '{S} unavailable', 'fix unresponsive {S}', '{S} lost wifi connection'],
  'personal.plan': ['plan {S}', 'schedule for {S}', '{S} plan on a budget', 'organize {S} for the month', '{S} around my free time'],
  'personal.track': ['track {S} progress', 'log my {S}', 'am I improving at {S}', 'keep a record of {S}', '{S} progress report'],
  'personal.shopping': ['shopping list for {S}', 'what to buy for {S}', 'packing list for {S}', '{S} list of things to get', 'supplies for {S}'],
};

/** The phrasings the stand-in model answers for one skill (`<subject>-<task>` of the generated library). */
function phrasingsFor(domainId: string, subjectId: string, taskId: string, subjectNames: readonly string[]): string[] {
  const phrasings = TASK_PHRASINGS[`${domainId}.${taskId}`];
  if (phrasings === undefined) throw new Error(`no trigger phrasings written for task ${domainId}.${taskId}`);
  const names = [...new Set([...(SUBJECT_KNOWLEDGE[subjectId] ?? []), ...subjectNames].map((n) => n.toLowerCase()))];
  return phrasings.slice(0, 12).map((p, i) => p.replaceAll('{S}', names[i % names.length] as string));
}

/** Skill name → phrasings, for every subject × task pair of the corpus. */
export function corpusTriggerTable(): Map<string, string[]> {
  const table = new Map<string, string[]>();
  for (const domain of DOMAINS) {
    for (const subject of domain.subjects) {
      for (const task of domain.tasks) table.set(`${subject.id}-${task.id}`, phrasingsFor(domain.id, subject.id, task.id, [subject.label, ...subject.aliases]));
    }
  }
  return table;
}

/**
 * A deterministic stand-in for a small model answering the trigger prompt: it reads the skill's name out of
 * the `<skill>` fence of the request, as a model would read the skill, and answers `{"triggers": [...]}` from
 * the table above. A skill it has no text for gets a non-JSON answer (which the parser rejects, as it would a
 * real model's bad answer).
 */
export function scriptedTriggerModel(table: ReadonlyMap<string, readonly string[]> = corpusTriggerTable()): ChatModel & { calls: number } {
  const model = {
    id: 'scripted:trigger-writer',
    calls: 0,
    describe: () => ({ kind: 'remote' as const, provider: 'scripted', model: 'trigger-writer', capabilities: { tools: 'none' as const, images: false } }),
    async *stream(request: ChatRequest): AsyncIterable<ModelEvent> {
      model.calls += 1;
      const prompt = request.messages.find((m) => m.role === 'user')?.content ?? '';
      const fenced = /<skill>([\s\S]*)<\/skill>/.exec(prompt)?.[1];
      const name = fenced === undefined ? undefined : (JSON.parse(fenced) as { name?: string }).name;
      const triggers = name === undefined ? undefined : table.get(name);
      yield { type: 'text', delta: triggers === undefined ? 'I cannot help with that skill.' : JSON.stringify({ triggers }) };
      yield { type: 'done', finishReason: 'stop' };
    },
  };
  return model;
}
