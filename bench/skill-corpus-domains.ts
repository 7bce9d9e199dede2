/**
 * Raw material for the generated skill library: 20 domains, each with subjects (the tool or thing a skill
 * is about) and tasks (what it does). A skill is one subject × one task. `describe`/`when` become the
 * skill's description; `asks` are how a user would ask for it, written to avoid the description's words
 * (different verbs, symptoms instead of solutions, casual wording), so retrieval is not a string match.
 * `{S}` is the subject's proper name, `{A}` a casual alias the user types.
 */
export interface CorpusSubject {
  id: string;
  label: string;
  aliases: string[];
}

export interface CorpusTask {
  id: string;
  describe: string;
  when: string[];
  tags: string[];
  asks: string[];
}

export interface CorpusDomain {
  id: string;
  subjects: CorpusSubject[];
  tasks: CorpusTask[];
}

const s = (id: string, label: string, ...aliases: string[]): CorpusSubject => ({ id, label, aliases: aliases.length > 0 ? aliases : [label] });
const t = (id: string, describe: string, when: string[], tags: string[], asks: string[]): CorpusTask => ({ id, describe, when, tags, asks });

export const DOMAINS: CorpusDomain[] = [
  {
    id: 'databases',
    subjects: [s('postgres', 'PostgreSQL', 'postgres', 'pg'), s('mysql', 'MySQL', 'mysql', 'mariadb'), s('sqlite', 'SQLite', 'sqlite'), s('mongodb', 'MongoDB', 'mongo')],
    tasks: [
      t('backup', 'Back up and restore {S} databases with consistent dumps', ['taking a snapshot before a risky change', 'recovering lost data'], ['backup', 'restore'], ['can you save a copy of everything in my {A} before I upgrade tonight', 'I deleted rows by accident in {A}, how do I get yesterday’s data back']),
      t('slow-queries', 'Find and fix slow {S} queries with query plans and indexes', ['pages load slowly', 'the database CPU is high'], ['performance', 'indexing'], ['our {A} box sits at 100% cpu and the dashboard takes ages', 'why does this {A} select take 30 seconds']),
      t('migrations', 'Write and apply versioned {S} schema migrations safely', ['adding or renaming columns', 'changing tables without downtime'], ['schema', 'migration'], ['add a new column to a huge {A} table without taking the site down', 'keep track of changes to my {A} tables in version control']),
      t('replication', 'Set up and monitor {S} replication and failover', ['read replicas', 'high availability'], ['replication', 'ha'], ['I want a standby {A} that takes over if the primary dies', 'add a read-only follower to our {A} cluster']),
    ],
  },
  {
    id: 'containers',
    subjects: [s('docker', 'Docker', 'docker'), s('podman', 'Podman', 'podman'), s('kubernetes', 'Kubernetes', 'k8s', 'kubectl'), s('nomad', 'HashiCorp Nomad', 'nomad')],
    tasks: [
      t('image-size', 'Shrink {S} container images with multi-stage builds and slim base images', ['images are huge', 'pulls are slow'], ['images', 'optimization'], ['my {A} image is 2GB, can we make it lighter', 'pulling our {A} stuff takes forever, trim it down']),
      t('crashloop', 'Diagnose {S} containers that crash or restart in a loop', ['exit codes', 'out-of-memory kills'], ['debugging', 'containers'], ['the {A} pod keeps dying every few seconds', 'my {A} workload exits with code 137 right after it starts']),
      t('networking', 'Configure {S} networking, published ports and service discovery', ['containers cannot reach each other'], ['networking', 'ports'], ['two services on {A} can’t talk to each other', 'open port 8080 from {A} to my laptop']),
      t('secrets', 'Manage secrets and environment variables for {S} workloads', ['API keys or passwords must stay out of images'], ['secrets', 'configuration'], ['where do I put the api token so {A} apps can read it without committing it']),
    ],
  },
  {
    id: 'ci',
    subjects: [s('github-actions', 'GitHub Actions', 'github actions', 'gh actions'), s('gitlab-ci', 'GitLab CI', 'gitlab ci', 'gitlab'), s('jenkins', 'Jenkins', 'jenkins'), s('circleci', 'CircleCI', 'circleci')],
    tasks: [
      t('caching', 'Speed up {S} pipelines with dependency and build caching', ['builds take too long'], ['ci', 'caching'], ['every {A} run reinstalls node_modules and takes 20 minutes', 'our {A} builds are painfully slow']),
      t('flaky-tests', 'Find and quarantine flaky tests in {S} runs', ['tests fail intermittently'], ['ci', 'testing'], ['tests pass locally but randomly go red on {A}', 'some {A} jobs fail one time out of five for no reason']),
      t('release', 'Automate tagged releases and changelogs from {S}', ['publishing versions', 'building artifacts on tags'], ['ci', 'release'], ['when I push a version tag I want {A} to publish the package', 'make {A} cut a new version with notes automatically']),
      t('matrix', 'Run {S} jobs across a matrix of OS and language versions', ['testing several Node or Python versions'], ['ci', 'matrix'], ['run our {A} checks on windows, mac and linux with node 18 and 20']),
    ],
  },
  {
    id: 'cloud',
    subjects: [s('aws', 'AWS', 'aws', 'amazon'), s('gcp', 'Google Cloud', 'gcp', 'google cloud'), s('azure', 'Azure', 'azure'), s('hetzner', 'Hetzner Cloud', 'hetzner')],
    tasks: [
      t('cost-report', 'Break down {S} spending by service and find waste', ['the monthly bill jumped'], ['cost', 'finops'], ['our {A} bill doubled this month, what is eating the money', 'which {A} resources are we paying for but not using']),
      t('iam-audit', 'Audit {S} access policies and remove excess permissions', ['least privilege reviews'], ['iam', 'security'], ['who on the team can delete production stuff in {A}', 'tighten the roles in our {A} account']),
      t('static-site', 'Host a static website on {S} storage with a CDN and HTTPS', ['publishing a landing page'], ['hosting', 'cdn'], ['put my little html site online on {A} with a custom domain']),
      t('terraform', 'Manage {S} infrastructure as code with Terraform', ['reproducible environments'], ['terraform', 'iac'], ['stop clicking around the {A} console, describe our servers in code', 'import the existing {A} resources into tf state']),
    ],
  },
  {
    id: 'git',
    subjects: [s('git', 'Git', 'git'), s('github', 'GitHub', 'github', 'gh'), s('gitlab', 'GitLab', 'gitlab'), s('gitea', 'Gitea', 'gitea')],
    tasks: [
      t('history-cleanup', 'Rewrite {S} history to drop secrets or large files', ['a password was committed'], ['history', 'security'], ['I accidentally pushed our .env with keys to {A}, scrub it from every commit', 'the {A} clone is 3GB because someone added videos years ago']),
      t('conflicts', 'Resolve {S} merge conflicts step by step', ['a rebase or merge stops with conflicts'], ['merge', 'rebase'], ['my {A} rebase stopped halfway with both versions in the file, help']),
      t('bisect', 'Find the commit that introduced a regression with {S} bisect', ['something broke between two versions'], ['regression', 'debugging'], ['it worked in last month’s build and now it doesn’t, which {A} change did it']),
      t('review-bot', 'Automate pull request review comments on {S}', ['enforcing review rules', 'labelling PRs'], ['code-review', 'automation'], ['post an automatic comment on every {A} merge request that touches the api folder']),
    ],
  },
  {
    id: 'languages',
    subjects: [s('python', 'Python', 'python', 'py'), s('typescript', 'TypeScript', 'typescript', 'ts', 'node'), s('rust', 'Rust', 'rust', 'cargo'), s('go', 'Go', 'golang')],
    tasks: [
      t('packaging', 'Package and publish {S} libraries to the registry', ['releasing a library'], ['packaging', 'publishing'], ['how do I make my {A} code installable by other people', 'get my {A} module onto the public index']),
      t('profiling', 'Profile {S} programs to find CPU and memory hot spots', ['code is slow', 'memory keeps growing'], ['profiling', 'performance'], ['my {A} script eats 8 gigs of ram after an hour', 'which function makes this {A} program so sluggish']),
      t('testing', 'Write unit tests for {S} code with fixtures and coverage', ['adding tests to untested code'], ['testing', 'coverage'], ['nothing in this {A} repo is checked, add some checks for the parser']),
      t('upgrade', 'Upgrade a {S} project to a new language version', ['deprecation warnings', 'end-of-life versions'], ['upgrade', 'compatibility'], ['we are stuck on an old {A} release and it goes out of support next month']),
    ],
  },
  {
    id: 'frontend',
    subjects: [s('react', 'React', 'react'), s('vue', 'Vue', 'vue'), s('svelte', 'Svelte', 'svelte', 'sveltekit'), s('angular', 'Angular', 'angular')],
    tasks: [
      t('accessibility', 'Audit {S} components for accessibility and fix WCAG issues', ['screen reader support', 'keyboard navigation'], ['a11y', 'wcag'], ['blind users say our {A} app is unusable with a screen reader', 'make the {A} forms work with only a keyboard']),
      t('bundle-size', 'Reduce {S} bundle size with code splitting and tree shaking', ['slow first load'], ['performance', 'bundling'], ['the {A} app ships 4MB of javascript on the first page']),
      t('state', 'Structure {S} application state and data fetching', ['props passed through many layers'], ['state-management', 'architecture'], ['I keep passing the same data down ten {A} components, there must be a better way']),
      t('component-tests', 'Test {S} components with testing-library', ['UI regressions'], ['testing', 'ui'], ['how do I check that my {A} dropdown actually opens when clicked in a test']),
    ],
  },
  {
    id: 'security',
    subjects: [s('linux-server', 'Linux servers', 'linux box', 'ubuntu server', 'vps'), s('web-app', 'web applications', 'web app', 'website'), s('laptop', 'developer laptops', 'laptop', 'macbook'), s('wordpress', 'WordPress', 'wordpress', 'wp')],
    tasks: [
      t('hardening', 'Harden {S} with a security baseline checklist', ['setting up a new machine'], ['hardening', 'baseline'], ['I just rented a {A}, lock it down before I put anything on it']),
      t('incident', 'Respond to a suspected compromise of {S}', ['signs of intrusion', 'unknown processes'], ['incident-response', 'forensics'], ['there’s a weird process mining crypto on my {A}, what do I do first', 'I think someone broke into our {A}']),
      t('vuln-scan', 'Scan {S} for known vulnerabilities and outdated software', ['CVE checks', 'compliance reviews'], ['scanning', 'cve'], ['check whether our {A} has any holes attackers know about']),
      t('secret-scan', 'Detect leaked credentials and tokens in {S}', ['keys pasted into config'], ['secrets', 'leaks'], ['make sure no api keys are sitting in plain text on the {A}']),
    ],
  },
  {
    id: 'observability',
    subjects: [s('prometheus', 'Prometheus', 'prometheus', 'prom'), s('grafana', 'Grafana', 'grafana'), s('datadog', 'Datadog', 'datadog', 'dd'), s('opentelemetry', 'OpenTelemetry', 'otel', 'opentelemetry')],
    tasks: [
      t('alerts', 'Write {S} alert rules that page on real problems', ['too many noisy alerts'], ['alerting', 'on-call'], ['we get woken up at 3am by {A} for things that fix themselves', 'notify me from {A} when error rate goes above 5%']),
      t('dashboards', 'Build {S} dashboards for service health', ['visualising latency and errors'], ['dashboards', 'metrics'], ['I want one {A} screen showing if the api is healthy']),
      t('tracing', 'Add distributed tracing with {S} across services', ['following a request through microservices'], ['tracing', 'latency'], ['a request hops through five services and I can’t tell which one is slow, wire up {A}']),
      t('log-queries', 'Query and correlate logs in {S}', ['searching errors across hosts'], ['logs', 'search'], ['find every 500 from yesterday afternoon in {A} for the checkout service']),
    ],
  },
  {
    id: 'docs',
    subjects: [s('api-reference', 'API reference docs', 'api docs', 'openapi'), s('readme', 'README files', 'readme'), s('changelog', 'changelogs', 'changelog', 'release notes'), s('runbook', 'operational runbooks', 'runbook', 'playbook')],
    tasks: [
      t('draft', 'Draft {S} from the code and existing notes', ['starting documentation from scratch'], ['writing', 'documentation'], ['nobody ever wrote a {A} for this project, put one together from the source']),
      t('review', 'Review and tighten {S} for clarity and accuracy', ['docs are outdated or confusing'], ['editing', 'documentation'], ['our {A} is rambling and half of it is wrong, clean it up']),
      t('translate', 'Translate {S} into other languages and keep them in sync', ['localising docs'], ['i18n', 'documentation'], ['we need the {A} in German and Japanese too']),
    ],
  },
  {
    id: 'communication',
    subjects: [s('gmail', 'Gmail', 'gmail', 'email'), s('outlook', 'Outlook mail', 'outlook'), s('slack', 'Slack', 'slack'), s('discord', 'Discord', 'discord')],
    tasks: [
      t('triage', 'Triage a {S} inbox into urgent, later and archive', ['too many unread messages'], ['inbox', 'productivity'], ['I have 900 unread in {A}, tell me what actually needs me today']),
      t('draft-reply', 'Draft polite replies to {S} messages in the user’s voice', ['answering customers or colleagues'], ['writing', 'replies'], ['write back to this angry customer on {A} without sounding defensive']),
      t('thread-summary', 'Summarize long {S} threads into decisions and action items', ['catching up after time off'], ['summaries', 'meetings'], ['I was away a week, what did people decide in the {A} conversation about pricing']),
      t('announce', 'Schedule and send announcements through {S}', ['release notes or team news'], ['announcements', 'scheduling'], ['post the launch news to {A} tomorrow at 9 sharp']),
    ],
  },
  {
    id: 'productivity',
    subjects: [s('google-calendar', 'Google Calendar', 'google calendar', 'gcal'), s('notion', 'Notion', 'notion'), s('todoist', 'Todoist', 'todoist'), s('obsidian', 'Obsidian', 'obsidian', 'vault')],
    tasks: [
      t('weekly-plan', 'Plan the week in {S} from open tasks and deadlines', ['Sunday planning', 'overloaded weeks'], ['planning', 'time-management'], ['help me lay out next week in {A}, I have three deadlines and a trip']),
      t('meeting-notes', 'Turn meeting transcripts into structured notes in {S}', ['after a call'], ['meetings', 'notes'], ['here is the zoom transcript, file the takeaways in {A}']),
      t('habits', 'Track habits and streaks with {S}', ['building routines'], ['habits', 'tracking'], ['I want to stick to reading every day, keep score for me in {A}']),
    ],
  },
  {
    id: 'data-analysis',
    subjects: [s('pandas', 'pandas', 'pandas', 'dataframe'), s('excel', 'Excel', 'excel', 'xlsx'), s('bigquery', 'BigQuery', 'bigquery', 'bq'), s('duckdb', 'DuckDB', 'duckdb')],
    tasks: [
      t('cleaning', 'Clean messy tabular data in {S}: types, duplicates and missing values', ['importing exported data'], ['data-cleaning', 'etl'], ['this {A} export has blank cells, repeated rows and dates as text', 'half the prices in my {A} file are strings with dollar signs']),
      t('pivot', 'Aggregate and pivot data in {S} for reports', ['totals by month or category'], ['aggregation', 'reporting'], ['give me revenue per region per quarter from the {A} table']),
      t('charts', 'Plot trends and distributions from {S} data', ['visual summaries for a slide'], ['visualization', 'charts'], ['turn these {A} numbers into a picture I can show my boss']),
      t('forecast', 'Forecast time series from {S} with seasonality', ['predicting next month'], ['forecasting', 'time-series'], ['based on the last two years in {A}, how many orders should we expect in December']),
    ],
  },
  {
    id: 'ml',
    subjects: [s('pytorch', 'PyTorch', 'pytorch', 'torch'), s('llama-cpp', 'llama.cpp', 'llama.cpp', 'gguf'), s('huggingface', 'Hugging Face Transformers', 'hugging face', 'transformers'), s('sklearn', 'scikit-learn', 'sklearn', 'scikit')],
    tasks: [
      t('fine-tune', 'Fine-tune models with {S} on a custom dataset', ['adapting a model to a domain'], ['training', 'fine-tuning'], ['teach the {A} model our support tickets so it answers like our team']),
      t('quantize', 'Quantize {S} models to fit small GPUs', ['out of GPU memory'], ['quantization', 'inference'], ['the {A} model doesn’t fit on my 8GB card, squeeze it']),
      t('evaluate', 'Evaluate {S} models with held-out metrics and error analysis', ['comparing model versions'], ['evaluation', 'metrics'], ['is the new {A} model actually better than last week’s or am I fooling myself']),
    ],
  },
  {
    id: 'media',
    subjects: [s('ffmpeg', 'FFmpeg', 'ffmpeg', 'video'), s('imagemagick', 'ImageMagick', 'imagemagick', 'photos'), s('audacity', 'audio recordings', 'audio', 'podcast'), s('gifs', 'animated GIFs', 'gif')],
    tasks: [
      t('convert', 'Convert media between formats with {S}', ['files a device cannot open'], ['conversion', 'formats'], ['my phone can’t play this file, turn it into something it can using {A}', 'change a folder of {A} files to webp']),
      t('compress', 'Compress media with {S} while keeping quality', ['files too large to share'], ['compression', 'size'], ['this {A} is 900MB and I need to email it']),
      t('trim', 'Cut, trim and join clips with {S}', ['removing the boring parts'], ['editing', 'clips'], ['chop the first two minutes off the {A} and glue on the ending']),
    ],
  },
  {
    id: 'documents',
    subjects: [s('pdf', 'PDF files', 'pdf'), s('docx', 'Word documents', 'word doc', 'docx'), s('pptx', 'PowerPoint decks', 'slides', 'powerpoint'), s('markdown', 'Markdown notes', 'markdown', 'md')],
    tasks: [
      t('extract', 'Extract text and tables from {S}', ['getting data out of reports'], ['extraction', 'tables'], ['pull the numbers out of the table on page 4 of this {A}']),
      t('merge', 'Merge, split and reorder {S}', ['combining chapters'], ['merge', 'split'], ['stitch these twelve {A} together in the right order']),
      t('convert', 'Convert {S} to other document formats', ['sharing with people on other tools'], ['conversion', 'export'], ['my colleague only takes html, turn the {A} into that']),
    ],
  },
  {
    id: 'finance',
    subjects: [s('bank-statements', 'bank statements', 'bank export', 'statement'), s('invoices', 'invoices', 'invoice'), s('receipts', 'receipts', 'receipt'), s('stocks', 'a stock portfolio', 'portfolio', 'shares')],
    tasks: [
      t('categorize', 'Categorize transactions from {S} into a budget', ['monthly money review'], ['budgeting', 'personal-finance'], ['where did all my money go last month, sort the {A} lines into groups']),
      t('reconcile', 'Reconcile {S} against accounting records', ['month-end close'], ['accounting', 'bookkeeping'], ['match the {A} entries with what’s in the books and flag mismatches']),
      t('tax-prep', 'Prepare {S} for the yearly tax return', ['tax season'], ['taxes', 'deductions'], ['the accountant wants my {A} stuff for the return by friday']),
    ],
  },
  {
    id: 'networking',
    subjects: [s('dns', 'DNS records', 'dns', 'domain'), s('wireguard', 'WireGuard VPN', 'wireguard', 'vpn'), s('nginx', 'nginx', 'nginx', 'reverse proxy'), s('cloudflare', 'Cloudflare', 'cloudflare')],
    tasks: [
      t('troubleshoot', 'Troubleshoot {S} connectivity problems', ['something is unreachable'], ['troubleshooting', 'connectivity'], ['the site works on wifi but not on mobile data, is it the {A}']),
      t('setup', 'Set up {S} from scratch with sane defaults', ['new infrastructure'], ['setup', 'configuration'], ['I have a fresh machine, get {A} going for my home lab']),
      t('tls', 'Issue and renew TLS certificates for {S}', ['expired certificates', 'HTTPS errors'], ['certificates', 'https'], ['browsers say my {A} site is not secure since yesterday']),
    ],
  },
  {
    id: 'home',
    subjects: [s('home-assistant', 'Home Assistant', 'home assistant', 'ha'), s('hue', 'Philips Hue lights', 'hue', 'lights'), s('thermostat', 'smart thermostats', 'thermostat', 'heating'), s('cameras', 'security cameras', 'cameras', 'doorbell cam')],
    tasks: [
      t('automation', 'Create {S} automations triggered by time, presence or sensors', ['routines at sunset or when leaving'], ['automation', 'smart-home'], ['when nobody is home the {A} should switch off by itself']),
      t('energy', 'Reduce energy use with {S} schedules', ['high electricity bills'], ['energy', 'savings'], ['our power bill is brutal, can the {A} be smarter about it']),
      t('troubleshoot', 'Fix {S} devices that drop offline', ['unresponsive devices'], ['troubleshooting', 'wifi'], ['half my {A} keep showing unavailable every morning']),
    ],
  },
  {
    id: 'personal',
    subjects: [s('meals', 'weekly meals', 'dinner', 'food'), s('workouts', 'workout routines', 'gym', 'running'), s('travel', 'trips', 'vacation', 'holiday'), s('learning', 'language study', 'spanish', 'vocabulary')],
    tasks: [
      t('plan', 'Plan {S} around goals, time and budget', ['starting something new'], ['planning', 'lifestyle'], ['sort out my {A} for the next month, I only have evenings free']),
      t('track', 'Log and review progress on {S}', ['checking if a plan works'], ['tracking', 'progress'], ['keep a record of my {A} and tell me if I’m improving']),
      t('shopping', 'Build shopping and packing lists for {S}', ['before going out to buy things'], ['lists', 'errands'], ['what do I need to buy for the {A} this weekend']),
    ],
  },
];
