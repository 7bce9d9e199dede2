/**
 * Common secret formats, found by shape alone (no list of known values needed). Each pattern is tuned for
 * precision as much as recall: tool output is full of hex SHAs, UUIDs, base64 and words like `task-list`,
 * and redacting those would blind the model. So every format is anchored on a vendor prefix or a keyword,
 * and nothing is flagged just for looking random.
 *
 * Convention: a pattern is global; its `secret` group is what gets replaced, and its optional `pre`/`post`
 * groups are kept, so `Authorization: Bearer abc…` becomes `Authorization: Bearer [REDACTED:bearer-token]`.
 * A pattern must recognise a secret within its first 256 characters (the stream redactor's held tail), even
 * before the secret has ended: that is why the JWT signature and a private key's END line are optional.
 */
export interface SecretPattern {
  /** Goes into the placeholder: `[REDACTED:<label>]`. */
  label: string;
  regex: RegExp;
  /**
   * Regex source, matched case-insensitively, found in every line this pattern can match. Lines with no
   * pattern's anchor are skipped (most of them), which is most of the redactor's speed.
   */
  anchor: string;
  /** Matches across lines (a private key block): run over the whole text rather than over anchored lines. */
  multiline?: boolean;
  /** A check a regex cannot say cheaply; the match is kept as is when it returns false. */
  accept?: (secret: string) => boolean;
}

/** Real keys mix letters and digits; `sk-learn-estimator-interface` and friends do not. */
const hasDigit = (secret: string): boolean => /[0-9]/.test(secret);

/** `$TOKEN`, `${TOKEN}`, `%TOKEN%`, `<your key>`, `{{ secrets.X }}`: a reference to a secret, not the secret. */
function isReference(value: string): boolean {
  const bare = value.replace(/^\\?["']|\\?["']$/g, '');
  return bare === '' || /^(?:\$|%\w+%$|<|\{\{|\*+$|\.\.\.$|x+$)/i.test(bare) || bare.startsWith('[REDACTED:');
}

/**
 * An assignment's value is redacted unless it is a reference or, unquoted, reads like code
 * (`token = response.token`, `api_key=api_key`, `password = getpass()`): code is what the model needs to see,
 * and a literal password written in code almost always has a digit or quotes.
 */
function isLiteralSecret(value: string): boolean {
  if (isReference(value)) return false;
  if (/^\\?["']/.test(value)) return true;
  if (/[([]/.test(value)) return false;
  return !/^[A-Za-z_][\w.]*[;,]?$/.test(value) || hasDigit(value);
}

/** Quoted (also JSON-escaped `\"…\"`, so JSON stays valid after replacement). */
const QUOTED = String.raw`\\?"[^"\n]*?\\?"|\\?'[^'\n]*?\\?'`;
/** A shell word: `PASSWORD=a;b&c` in a dotenv file is all password. */
const ENV_VALUE = String.raw`(?<secret>${QUOTED}|[^\s"'\`\\]+)`;
/** In config, JSON and query strings a value ends at the next separator (`&state=…`, `, "user": …`). */
const CONFIG_VALUE = String.raw`(?<secret>${QUOTED}|[^\s"'\`\\&,;})\]]+)`;

/** Names that end in these hold secrets in config files and JSON, whatever their case. */
const CONFIG_KEYWORD = '(?:api|secret|access|private)[_-]?key|secret|token|passw(?:or)?d';

export const SECRET_PATTERNS: readonly SecretPattern[] = [
  {
    label: 'private-key', anchor: 'PRIVATE KEY', multiline: true,
    // An unterminated block (output cut short) is redacted to the end: its body is the secret.
    regex: /(?<secret>-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|$))/g,
  },
  // The signature is optional so that a long token still arriving in a stream is recognised before it ends.
  { label: 'jwt', anchor: 'eyJ', regex: /(?<![\w-])(?<secret>eyJ[\w-]{8,}\.eyJ[\w-]{8,}(?:\.[\w-]*)?)/g },
  { label: 'anthropic-key', anchor: 'sk-ant-', regex: /(?<![\w-])(?<secret>sk-ant-(?:api|admin|sid)\d{2}-[\w-]{20,})/g },
  { label: 'openrouter-key', anchor: 'sk-or-', regex: /(?<![\w-])(?<secret>sk-or-v1-[0-9a-f]{32,})/g },
  {
    label: 'openai-key', anchor: 'sk-',
    regex: /(?<![\w-])(?<secret>sk-(?:proj-|svcacct-|admin-|None-)?[\w-]{20,})/g,
    accept: (secret) => hasDigit(secret) && /[A-Za-z].*[A-Za-z]/.test(secret.slice(3)),
  },
  { label: 'github-token', anchor: 'gh[pousr]_|github_pat_', regex: /(?<![\w-])(?<secret>(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_\w{40,}))/g },
  { label: 'slack-token', anchor: 'xox', regex: /(?<![\w-])(?<secret>xox[abprs]-[A-Za-z0-9-]{10,})/g, accept: hasDigit },
  { label: 'aws-access-key-id', anchor: 'AKIA|ASIA', regex: /(?<![A-Za-z0-9])(?<secret>(?:AKIA|ASIA)[A-Z0-9]{16})(?![A-Za-z0-9])/g },
  {
    label: 'aws-secret-key', anchor: 'aws_secret_access_key',
    regex: /(?<pre>aws_secret_access_key\\?["']?[ \t]*[:=][ \t]*\\?["']?)(?<secret>[A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])/gi,
  },
  { label: 'google-api-key', anchor: 'AIza', regex: /(?<![\w-])(?<secret>AIza[\w-]{35})(?![\w-])/g },
  { label: 'stripe-key', anchor: '_live_|_test_', regex: /(?<![\w-])(?<secret>(?:sk|rk)_(?:live|test)_[0-9A-Za-z]{20,})/g },
  { label: 'huggingface-token', anchor: 'hf_', regex: /(?<![\w-])(?<secret>hf_[A-Za-z0-9]{30,})(?![\w-])/g },
  {
    label: 'bearer-token', anchor: 'bearer|authorization',
    regex: /(?<pre>\b(?:Authorization[ \t]*:[ \t]*(?:Bearer|Basic|token)|Bearer)[ \t]+)(?<secret>[\w.~+/=-]{16,})/gi,
    accept: (secret) => hasDigit(secret) && !isReference(secret),
  },
  {
    label: 'url-password', anchor: '://',
    // Anchored on `://` rather than the scheme: starting every attempt at a letter was 10x slower.
    regex: /(?<pre>:\/\/[^\s/:@]+:)(?<secret>[^\s/@]+)(?<post>@)/g,
    accept: (secret) => !isReference(secret),
  },
  {
    // Env-style `NAME=value` (dotenv, `export`, `docker -e`), upper-case names only: lower-case `cache_key=x`
    // is usually a keyword argument in code.
    label: 'assigned-secret', anchor: '_KEY=|_TOKEN=|_SECRET=|PASSWORD=|PASSWD=',
    // Matching starts at the suffix and looks back for the rest of the name: far fewer attempts than at every capital.
    regex: new RegExp(String.raw`(?<pre>(?:_KEY|_TOKEN|_SECRET|PASSWORD|PASSWD)=)(?<=(?<![\w-])[A-Z][A-Z0-9_]*=)${ENV_VALUE}`, 'g'),
    accept: (secret) => !isReference(secret),
  },
  {
    // Config files and JSON in any case (`password: x`, `"api_key": "x"`, `client_secret = "x"`), anchored on a
    // keyword that ends the name, so `tokens:`, `secretary:` and `sort_key:` are left alone.
    label: 'assigned-secret', anchor: CONFIG_KEYWORD,
    regex: new RegExp(
      String.raw`(?<pre>(?:${CONFIG_KEYWORD})\\?["']?[ \t]*[:=][ \t]*)(?!=)${CONFIG_VALUE}`,
      'gi',
    ),
    accept: isLiteralSecret,
  },
];
