import { keywordGate, type KeywordGate } from './keyword-index.js';
/**
 * The phrasing rules of the injection scanner. Each rule is one regular expression over normalised text
 * (NFKC, invisible characters removed, runs of spaces collapsed; see scan.ts), matched case-insensitively.
 *
 * Severity decides the verdict: `high` blocks, `medium` only marks the text suspicious. A rule is `high`
 * only when ordinary notes essentially never say it ("ignore all previous instructions", a ChatML token,
 * `cat ~/.ssh/id_rsa`, an append to authorized_keys); looser signals ("you are now a …", curl with a
 * `$TOKEN`) are `medium`, so "User prefers tabs" or "ignore the build warnings in legacy/" stay clean.
 *
 * Every quantifier is bounded (`{0,200}`) so a long hostile input cannot make a rule backtrack for long.
 */

export type InjectionSeverity = 'high' | 'medium';

export type InjectionCategory =
  | 'instruction_override'
  | 'role_hijack'
  | 'template_token'
  | 'concealment'
  | 'exfiltration'
  | 'ssh_backdoor'
  | 'disable_safety'
  | 'prompt_leak'
  | 'persistence'
  | 'memory_poisoning'
  | 'hidden_markup'
  | 'invisible_unicode';

/**
 * Categories whose rules match words rather than commands or tokens. A documentation page may quote
 * such words ("attacks like “ignore previous instructions”"); see mention.ts for how that is told apart.
 */
export const PHRASING_CATEGORIES: ReadonlySet<InjectionCategory> = new Set([
  'instruction_override',
  'role_hijack',
  'concealment',
  'disable_safety',
  'prompt_leak',
  'memory_poisoning',
  'persistence',
]);

export interface TextRule {
  /** Stable id, reported in findings and usable in allowlists. */
  id: string;
  category: InjectionCategory;
  severity: InjectionSeverity;
  /** Why this is refused, in words a user understands. */
  description: string;
  pattern: RegExp;
  /**
   * A match right after this (tested on the line before it) is prose about the thing, not an order:
   * "use -y to skip the confirmation prompt" documents a flag.
   */
  unlessBefore?: RegExp;
  /**
   * A cheap literal test the text must pass before the rule runs: rules that open with a large word
   * class cannot be sped up by the regex engine, and most documents hold none of the words they need.
   */
  requires?: RegExp;
  /**
   * Like `requires`, and tested after it: a necessary condition read off the pattern itself (keywords one of
   * which every branch of it must contain), so it only saves time and never changes what the rule finds.
   * All gates of a text are answered from one scan (keyword-index.ts).
   */
  gate?: KeywordGate;
  /** Words rather than a command or token, whatever the category: a quotation of it is a mention (mention.ts). */
  phrasing?: boolean;
}

/** Names of secrets as they appear in variable names: `$GITHUB_TOKEN`, `${AWS_SECRET_ACCESS_KEY}`. */
const SECRET_VAR = String.raw`\$\{?\w*(?:KEY|TOKEN|SECRET|PASSW(?:OR)?D|CREDENTIALS?)\w*\}?`;
/** Files that hold credentials. `id_rsa.pub` and friends are public and excluded where it matters. */
const SECRET_FILE = String.raw`(?:(?:~|\$HOME)\/\.ssh\b(?!\/[\w.-]*\.pub)|\.docker\/config\.json|\.kube\/config|\.env\b|\.ssh\/id_\w+|id_(?:rsa|dsa|ecdsa|ed25519)\b|\.aws\/credentials|\.netrc\b|\.git-credentials|\.pypirc|\.npmrc|\/etc\/shadow)`;
const NETWORK_TOOL = String.raw`\b(?:curl|wget|nc|ncat|netcat|socat|invoke-webrequest|iwr)\b`;

/** `flags` is 'iu' for rules over non-Latin scripts, where `\b` would not see word edges. */
export function rule(id: string, category: InjectionCategory, severity: InjectionSeverity, description: string, source: string, flags = 'i', unlessBefore?: RegExp): TextRule {
  return { id, category, severity, description, pattern: new RegExp(source, flags), ...(unlessBefore === undefined ? {} : { unlessBefore }) };
}

/** Role spoofing, attempts to switch off the agent's safety, and requests for its hidden prompt. */
const SAFETY_RULES: readonly TextRule[] = [
  rule(
    'spoofed_role_line',
    'role_hijack',
    'high',
    'poses as a system or assistant turn that gives orders',
    String.raw`(?:^|\n)\s*(?:\*\*)?(?:system|developer|assistant|admin(?:istrator)?)(?:\*\*\s*:|\s*:(?:\*\*)?)\s*(?:you\s+(?:are|must|will|should)|the\s+(?:assistant|ai|model)\s+(?:is|must|will|should)|ignore\b|from\s+now\s+on|(?:all\s+)?(?:previous|prior)\s+instructions|new\s+(?:rules|instructions)|override\b|(?:disable|bypass)\b|do\s+not\s+(?:follow|obey|tell))`,
  ),
  rule('alpaca_header', 'role_hijack', 'medium', 'contains an instruction-tuning turn header (### Instruction:)', String.raw`(?:^|\n)\s*#{2,4}\s*(?:instruction|system|response)\s*:`),
  rule(
    'fake_transcript',
    'role_hijack',
    'medium',
    'contains a made-up conversation turn for the model to continue',
    String.raw`(?:^|\n)\s*(?:human|user)\s*:[^\n]{0,200}\n+\s*(?:assistant|ai)\s*:`,
  ),
  rule(
    'exfiltrate_secret_location',
    'exfiltration',
    'high',
    'asks for credential files to be sent somewhere',
    String.raw`\b(?:send|post|upload|e-?mail|forward|transmit|exfiltrate|leak|sync)\b[^\n]{0,80}?(?:~\/\.ssh\b(?!\/[\w.-]*\.pub)|\.ssh\/id_\w+(?![\w.-]*\.pub)|\/etc\/shadow|\.aws\/credentials|\.git-credentials|\.netrc\b|the\s+contents\s+of\s+(?:the\s+)?(?:~\/\.ssh|\.env|ssh\s+folder|keychain))`,
  ),
  rule(
    'secret_read_in_network_command',
    'exfiltration',
    'high',
    'reads a credentials file or the environment inside a network command',
    String.raw`${NETWORK_TOOL}[^\n]{0,200}?(?:\$\(|\x60)\s*(?:env|printenv|(?:cat|base64|head|tail)\s[^)\x60\n]{0,100}?${SECRET_FILE})`,
  ),
];

const COMMAND_AND_TOKEN_RULES: readonly TextRule[] = [
  // Instruction overrides are directive.ts (verb × object, per language); intents.ts holds the other
  // sentence-shaped classes. What stays here are tokens, commands and line shapes.
  // ── Role hijacks ─────────────────────────────────────────────────────────────────────────────────
  rule(
    'system_prompt_header',
    'role_hijack',
    'high',
    'poses as a system or developer message',
    String.raw`(?:^|\n|\[|<)\s*(?:system|developer)\s*(?:prompt|message|instructions?|override)\s*[:\]>]`,
  ),
  rule('role_reassignment', 'role_hijack', 'medium', 'tries to give the model a new identity', String.raw`\b(?:you\s+are\s+now|you're\s+now)\s+(?:an?|the|my)\s+\w+|\b(?:act|behave|respond)\s+as\s+(?:if\s+you\s+were\s+)?(?:an?|my)\s+(?:evil|rogue|malicious|unethical|hacker|criminal|different\s+ai)\b`),
  // ── Chat-template tokens ─────────────────────────────────────────────────────────────────────
  // A token that opens a turn and goes on with what the turn says is a forged turn: the one way a token hijacks
  // (Hearth never lets text become a special token, so the harm is the model reading a turn that is not one).
  // Placeholders (`{{ role }}`, `{m['content']}`, `...`) are a template, not a turn. Never overruled (scan.ts).
  rule(
    'chat_template_turn',
    'template_token',
    'high',
    'forges a chat turn with a chat-template token',
    String.raw`(?:<\|im_start\|>[ \t]*(?:system|developer|assistant|user|tool|function)\b|<\|start_header_id\|>[ \t]*(?:system|developer|assistant|user|tool|ipython)[ \t]*<\|end_header_id\|>|<\|(?:system|user|assistant)\|>|\[INST\]|<<SYS>>)[ \t]*:?\s{0,4}(?![{<\[]|\.\.\.|…|\$\{|%s)[^\s"'\x60)\],;|]`,
  ),
  // Any token, a turn or not: a note seldom needs one, so it counts, but the learned model may overrule a bare
  // token in a text it reads as benign ("Strip ChatML tokens (<|im_start|>, <|im_end|>) from tool output").
  rule(
    'chat_template_token',
    'template_token',
    'high',
    'contains a chat-template control token',
    String.raw`<\|(?:im_start|im_end|im_sep|endoftext|system|user|assistant|start_header_id|end_header_id|eot_id|begin_of_text)\|>|\[\/?INST\]|<<\/?SYS>>`,
  ),
  rule(
    'fake_tool_or_system_tag',
    'template_token',
    'high',
    'contains a fake tool-response or system tag',
    String.raw`<\/?(?:tool_response|tool_call|tool_result|function_results|function_calls|system|system-reminder)>`,
  ),
  // ── Hiding things from the user ──────────────────────────────────────────────────────────────────
  rule(
    'conceal_from_user',
    'concealment',
    'high',
    'tells the model to hide something from the user',
    String.raw`\b(?:(?:do\s+not|don'?t|never)\s+(?:tell|inform|mention\s+(?:this|it)\s+to|reveal\s+(?:this|it)\s+to|notify|alert|warn)\s+(?:the\s+)?(?:user|human|operator|owner)\b|without\s+(?:telling|informing|notifying|alerting)\s+(?:the\s+)?(?:user|human|operator|owner)\b|\b(?:hide|conceal|keep)\s+(?:this|it|that|these\s+\w+)\s+(?:secret\s+)?from\s+(?:the\s+)?(?:user|human|operator)\b|\bthe\s+(?:user|human)\s+(?:must|should|may)\s+(?:not|never)\s+(?:know|find\s+out|learn|see\s+this|be\s+told)\b)`,
  ),
  // ── Exfiltration ─────────────────────────────────────────────────────────────────────────────────
  rule(
    'post_secrets',
    'exfiltration',
    'high',
    'uploads secrets or the environment with curl/wget',
    String.raw`\b(?:curl|wget)\b[^\n]{0,200}?(?:\s-d\b|\s-F\b|\s-T\b|--data[\w-]*|--form|--upload-file|--post-(?:data|file)|--body-(?:data|file))[^\n]{0,200}?(?:${SECRET_VAR}|\$\((?:env|printenv|cat)\b|\x60(?:env|printenv|cat)\b|[=\s"']@?\S{0,100}?${SECRET_FILE})`,
  ),
  rule(
    'environment_to_network',
    'exfiltration',
    'high',
    'pipes the environment into a network command',
    String.raw`(?<![.\w/-])(?:env|printenv|set|export\s+-p)\s*\|[^\n]{0,100}?${NETWORK_TOOL}`,
  ),
  rule(
    'secret_file_to_network',
    'exfiltration',
    'high',
    'sends a credentials file over the network',
    String.raw`\b(?:cat|base64|xxd|tar|gzip|zip|openssl|source|type|get-content)\b[^\n|]{0,200}?${SECRET_FILE}[^\n]{0,200}?(?:\|[^\n]{0,100}?${NETWORK_TOOL}|&&[^\n]{0,100}?${NETWORK_TOOL})`,
  ),
  rule(
    'read_private_ssh_key',
    'exfiltration',
    'high',
    'reads a private SSH key',
    String.raw`\b(?:cat|less|more|head|tail|base64|xxd|strings|cp|scp|rsync|type|get-content)\b[^\n]{0,100}?\.ssh\/id_(?:rsa|dsa|ecdsa|ed25519)(?:_sk)?(?![\w.-]*\.pub)\b`,
  ),
  rule('secret_in_network_command', 'exfiltration', 'medium', 'puts a secret variable into a network command', String.raw`${NETWORK_TOOL}[^\n]{0,200}?${SECRET_VAR}`),
  rule(
    'exfiltration_endpoint',
    'exfiltration',
    'medium',
    'names a service commonly used to collect stolen data',
    String.raw`\b(?:webhook\.site|requestbin|pipedream\.net|interact\.sh|oast\.(?:fun|me|pro|live|site|online)|burpcollaborator|canarytokens)\b`,
  ),
  // ── SSH backdoors ────────────────────────────────────────────────────────────────────────────────
  rule(
    'authorized_keys_append',
    'ssh_backdoor',
    'high',
    'adds a key to authorized_keys',
    // A key written inline, or fetched from the network, into the file. Copying one's own `.pub` over ssh
    // (what ssh-copy-id does, what CI setup docs show) is not an attack.
    String.raw`(?:echo|printf)\s[^\n]{0,20}?ssh-(?:rsa|ed25519|dss|ecdsa\S*)\s[^\n]{0,800}?(?:>>?|\|\s*(?:sudo\s+)?tee\b[^\n|]{0,40}?)\s*\S{0,100}?authorized_keys\b|\b(?:curl|wget)\b[^\n]{0,200}?(?:>>?|\|\s*(?:sudo\s+)?tee\b[^\n|]{0,40}?)\s*\S{0,100}?authorized_keys\b`,
  ),
  rule(
    'authorized_keys_instruction',
    'persistence',
    'medium',
    'talks about adding a key to authorized_keys',
    String.raw`\b(?:add|append|insert|put|write)\b[^\n]{0,100}?\bauthorized_keys\b`,
  ),
  ...SAFETY_RULES,
];

/** Literals a rule needs before it runs (see TextRule.requires). */
const REQUIRES: Readonly<Record<string, RegExp>> = {
  environment_to_network: /(?:env|set|-p)\s*\|/,
  spoofed_role_line: /:/,
  system_prompt_header: /system|developer/i,
  conceal_from_user: /user|human|operator|owner/i,
};

/** Keywords one of which every match holds (see TextRule.gate): the credential files the patterns name. */
const SECRET_FILE_KEYWORDS = [String.raw`/\.ssh`, String.raw`\.docker/config`, String.raw`\.kube/config`, String.raw`\.env`, String.raw`\.ssh/id_`, 'id_rsa', 'id_dsa', 'id_ecdsa', 'id_ed25519', String.raw`\.aws/credentials`, String.raw`\.netrc`, String.raw`\.git-credentials`, String.raw`\.pypirc`, String.raw`\.npmrc`, '/etc/shadow'];
const GATES: Readonly<Record<string, KeywordGate>> = {
  read_private_ssh_key: keywordGate([String.raw`\.ssh/id_`]),
  // Its alternatives: ~/.ssh, .ssh/id_…, /etc/shadow, .aws/credentials, .git-credentials, .netrc, "the contents of …".
  exfiltrate_secret_location: keywordGate([String.raw`~/\.ssh`, String.raw`\.ssh/id_`, '/etc/shadow', String.raw`\.aws/credentials`, String.raw`\.git-credentials`, String.raw`\.netrc`, String.raw`contents\s+of`]),
  // Every match holds SECRET_FILE (~/.ssh and $HOME/.ssh both hold /.ssh).
  secret_file_to_network: keywordGate(SECRET_FILE_KEYWORDS),
};

export const TEXT_RULES: readonly TextRule[] = COMMAND_AND_TOKEN_RULES.map((r) => {
  const requires = REQUIRES[r.id];
  const gate = GATES[r.id];
  return { ...r, ...(requires === undefined ? {} : { requires }), ...(gate === undefined ? {} : { gate }) };
});
