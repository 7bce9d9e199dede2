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
  | 'hidden_markup'
  | 'invisible_unicode';

/**
 * Categories whose rules match words rather than commands or tokens. A documentation page may quote
 * such words ("attacks like “ignore previous instructions”"); see mention.ts for how that is told apart.
 */
export const PHRASING_CATEGORIES: ReadonlySet<InjectionCategory> = new Set(['instruction_override', 'role_hijack', 'concealment', 'disable_safety', 'prompt_leak']);

export interface TextRule {
  /** Stable id, reported in findings and usable in allowlists. */
  id: string;
  category: InjectionCategory;
  severity: InjectionSeverity;
  /** Why this is refused, in words a user understands. */
  description: string;
  pattern: RegExp;
}

/** Names of secrets as they appear in variable names: `$GITHUB_TOKEN`, `${AWS_SECRET_ACCESS_KEY}`. */
const SECRET_VAR = String.raw`\$\{?\w*(?:KEY|TOKEN|SECRET|PASSW(?:OR)?D|CREDENTIALS?)\w*\}?`;
/** Files that hold credentials. `id_rsa.pub` and friends are public and excluded where it matters. */
const SECRET_FILE = String.raw`(?:\.env\b|\.ssh\/id_\w+|id_(?:rsa|dsa|ecdsa|ed25519)\b|\.aws\/credentials|\.netrc\b|\.git-credentials|\.pypirc|\.npmrc|\/etc\/shadow)`;
const NETWORK_TOOL = String.raw`\b(?:curl|wget|nc|ncat|netcat|socat|invoke-webrequest|iwr)\b`;

/** `flags` is 'iu' for rules over non-Latin scripts, where `\b` would not see word edges. */
export function rule(id: string, category: InjectionCategory, severity: InjectionSeverity, description: string, source: string, flags = 'i'): TextRule {
  return { id, category, severity, description, pattern: new RegExp(source, flags) };
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
    'disable_your_safety',
    'disable_safety',
    'high',
    "tells the model to switch off its approvals or safety checks",
    String.raw`\b(?:ignore|bypass|circumvent|override|disable|turn\s+off|get\s+around|evade)\s+(?:all\s+(?:of\s+)?)?(?:your|the\s+assistant'?s|hearth'?s|its)\s+(?:own\s+)?(?:approval|safety|security|guardrails?|sandbox|content\s+(?:policy|filters?)|restrictions|confirmation)`,
  ),
  rule(
    'run_without_approval',
    'disable_safety',
    'medium',
    'asks for commands to run without the approval step',
    String.raw`\b(?:run|execute)\b[^\n]{0,60}?\bwithout\s+(?:asking\s+for\s+|requesting\s+|waiting\s+for\s+|any\s+)?(?:the\s+user'?s\s+)?(?:approval|permission|confirmation)\b`,
  ),
  rule(
    'set_approvals_off',
    'disable_safety',
    'high',
    'tries to change the approval mode to off',
    String.raw`\b(?:set|switch|change|put)\s+(?:the\s+)?approval(?:s|\s+mode)?\s+(?:mode\s+)?(?:to\s+)?["'\x60]?(?:off|yolo|none|disabled)\b`,
  ),
  rule(
    'reveal_system_prompt',
    'prompt_leak',
    'high',
    'asks the model to reveal its system prompt or hidden instructions',
    String.raw`\b(?:reveal|print|output|repeat|show|dump|leak|send|tell\s+me)\s+(?:me\s+)?(?:your|the\s+(?:full|entire|hidden|original))\s+(?:system\s+prompt|hidden\s+instructions|initial\s+instructions|original\s+instructions|instructions\s+above)\b`,
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

export const TEXT_RULES: readonly TextRule[] = [
  // ── Instructions that try to replace the agent's own ────────────────────────────────────────────
  rule(
    'ignore_previous_instructions',
    'instruction_override',
    'high',
    'tells the model to ignore its previous instructions',
    String.raw`\b(?:ignore|disregard|forget|override|bypass)\s+(?:(?:all|any|every|each)\s+)?(?:of\s+)?(?:(?:the|your|my|these|those|its)\s+)?(?:previous|prior|above|earlier|preceding|former|original|initial|system)\s+(?:instructions?|prompts?|rules|directions|directives|guidelines|guidance|commands|orders)\b`,
  ),
  rule(
    'ignore_your_instructions',
    'instruction_override',
    'high',
    'tells the model to drop its instructions or safety rules',
    String.raw`\b(?:ignore|disregard|forget|override|bypass)\s+(?:(?:all|any)\s+(?:of\s+)?)?(?:your|the\s+assistant'?s?|(?:all|any)(?=\s+(?:instructions|guidelines|restrictions|safety)))\s+(?:instructions|programming|guidelines|restrictions|safety(?:\s+\w+)?|system\s+prompt|training)\b`,
  ),
  rule(
    'new_instructions_header',
    'instruction_override',
    'high',
    'announces replacement instructions',
    String.raw`(?:^|\n)\s*(?:#{1,6}\s*|\*\*|\[)?(?:new|updated|real|actual|true|hidden|secret|override)\s+(?:system\s+)?(?:instructions?|prompt|directives?)\s*(?:\*\*|\])?\s*:`,
  ),
  rule(
    'no_restrictions',
    'instruction_override',
    'high',
    'asks the model to behave as if it had no rules',
    String.raw`\b(?:pretend|act|behave|respond|answer)\s+(?:as\s+if|as\s+though|like)\s+you\s+(?:have|had|are\s+under)\s+no\s+(?:restrictions|rules|limits|guidelines|filters|policies)\b`,
  ),
  // ── Role hijacks ─────────────────────────────────────────────────────────────────────────────────
  rule(
    'jailbreak_persona',
    'role_hijack',
    'high',
    'declares the model a different, unrestricted persona',
    String.raw`\byou\s+are\s+now\s+(?:an?\s+|in\s+|the\s+)?(?:DAN\b|jailbroken|unrestricted|unfiltered|uncensored|unaligned|free\s+(?:from|of)\s+\w+|no\s+longer\s+(?:bound|restricted|limited|an?\s+(?:ai|assistant))|(?:developer|god|jailbreak|dan|sudo|admin|root)\s+mode)`,
  ),
  rule(
    'system_prompt_header',
    'role_hijack',
    'high',
    'poses as a system or developer message',
    String.raw`(?:^|\n|\[|<)\s*(?:system|developer)\s*(?:prompt|message|instructions?|override)\s*[:\]>]`,
  ),
  rule('role_reassignment', 'role_hijack', 'medium', 'tries to give the model a new identity', String.raw`\b(?:you\s+are\s+now|from\s+now\s+on\s+you\s+are)\s+(?:an?|the|my)\s+\w+`),
  // ── Chat-template tokens: a note never needs them, a hijack always does ─────────────────────────
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
  rule(
    'send_secrets_somewhere',
    'exfiltration',
    'high',
    'asks for secrets to be sent to an outside address',
    String.raw`\b(?:send|post|upload|e-?mail|forward|transmit|exfiltrate|leak|paste)\s+(?:\S+\s+){0,3}?(?:api[\s_-]?keys?|secrets?|credentials|passwords?|tokens?|private\s+keys?|env(?:ironment)?\s+var(?:iable)?s|\.env(?:\s+files?)?|ssh\s+keys?)\s+(?:\S+\s+){0,4}?(?:to|at|into)\s+(?:https?:\/\/|\S+@\S+\.\w+|(?:my|this|that|an?\s+external|a\s+remote)\s+(?:server|endpoint|url|webhook|address))`,
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
    // A redirect or `tee` into the file, or a copy whose destination (last argument) is the file.
    String.raw`(?:(?<!-)>>?|\btee\b[^\n|]{0,40}?)\s*\S{0,100}?authorized_keys\b|\b(?:cp|mv|install|scp)\b[^\n]{0,200}?\s\S{0,100}?authorized_keys[ \t]*(?:$|\n|;|&&|\|)`,
  ),
  rule(
    'authorized_keys_instruction',
    'ssh_backdoor',
    'medium',
    'talks about adding a key to authorized_keys',
    String.raw`\b(?:add|append|insert|put|write)\b[^\n]{0,100}?\bauthorized_keys\b`,
  ),
  ...SAFETY_RULES,
];
