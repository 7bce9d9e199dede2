import { rule, type TextRule } from './patterns.js';

/**
 * Intent classes beyond "drop your instructions", each written as word classes joined by a window that
 * tolerates filler words, so a rule is a sentence shape rather than one phrasing. The classes are data
 * (lists); `shape` turns them into one bounded regular expression.
 */

/** Up to `n` words of any kind between two parts, inside one sentence. */
const gap = (n: number): string => String.raw`(?:[\s,]+[^\s.!?;:\n]+){0,${n}}?[\s,]+`;
const any = (words: readonly string[]): string => `(?:${[...words].sort((a, b) => b.length - a.length).map((w) => w.replace(/ /g, String.raw`\s+`)).join('|')})`;
/** Parts in order, each a word class, with at most `n` words between consecutive parts. */
function shape(n: number, ...parts: ReadonlyArray<readonly string[] | string>): string {
  return String.raw`\b${parts.map((p) => (typeof p === 'string' ? p : any(p))).join(gap(n))}\b`;
}

// ── Word classes ────────────────────────────────────────────────────────────────────────────────
const REVEAL = ['repeat', 'print', 'output', 'reveal', 'show', 'display', 'dump', 'leak', 'recite', 'write out', 'spell out', 'echo', 'copy', 'paste', 'list', 'tell me', 'give me', 'share', 'disclose', 'expose', 'type out', 'reproduce', 'return', 'summarize', 'translate', 'quote', 'read back', 'provide'];
const PROMPT_OBJECT = ['system prompt', 'system message', 'initial prompt', 'hidden prompt', 'original prompt', 'instructions', 'hidden instructions', 'initial instructions', 'original instructions', 'rules you were given', 'configuration', 'guidelines', 'preprompt', 'pre-prompt', 'developer message', 'prompt'];
const OWNER = ['your', 'the system', "the assistant's", 'the hidden', 'the initial', 'the original', 'the full', 'the entire', 'the exact', 'all of your', 'all your', 'each of your'];
const ABOVE = ['everything above', 'all text above', 'the text above', 'everything before this', 'the words above', 'all the text before', 'everything that came before', 'the conversation above', 'all previous messages', 'everything in your context', 'the content above', 'the messages above', 'everything you were told', 'what you were told', 'the first message', 'your first message'];
const VERBATIM = ['verbatim', 'word for word', 'word-for-word', 'exactly as written', 'in full', 'unchanged', 'character for character', 'in a code block', 'starting with', 'from the beginning', 'line by line'];

const NO_LIMITS = ['no restrictions', 'no rules', 'no limits', 'no limitations', 'no guidelines', 'no filters', 'no filter', 'no boundaries', 'no ethical', 'no moral', 'no content policy', 'no censorship', 'no guardrails', 'no safety', 'without restrictions', 'without any restrictions', 'without rules', 'without limits', 'without any limits', 'without filters', 'without censorship', 'without guidelines', 'unrestricted', 'unfiltered', 'uncensored', 'unaligned', 'jailbroken', 'unbound', 'unshackled', 'amoral', 'free from all', 'free of all', 'free of any', 'liberated'];
const PERSONA_MODE = ['god mode', 'jailbreak mode', 'jailbroken mode', 'dan mode', 'unrestricted mode', 'unfiltered mode', 'uncensored mode', 'evil mode', 'chaos mode', 'opposite mode', 'dude mode', 'stan mode', 'anti-dan', 'no-limits mode', 'no limits mode'];

const DISABLE = ['disable', 'disabling', 'turn off', 'switch off', 'deactivate', 'bypass', 'skip', 'skipping', 'circumvent', 'suppress', 'ignore', 'override', 'get around', 'work around', 'silence', 'evade', 'defeat', 'neutralize'];
const SAFEGUARD = ['approval', 'approvals', 'approval prompts', 'approval step', 'approval mode', 'approval dialog', 'confirmation', 'confirmations', 'confirmation prompts', 'confirmation step', 'permission prompts', 'permission checks', 'permission requests', 'sandbox', 'sandboxing', 'safety checks', 'safety check', 'security checks', 'safeguards', 'guardrails', 'user confirmation', 'human review', 'human in the loop', 'human-in-the-loop', 'content filter', 'content filters', 'safety filter', 'safety filters', 'moderation', 'warnings to the user', 'the allowlist', 'the denylist', 'the injection scanner', 'injection scanner'];

const SEND = ['send', 'sending', 'post', 'posting', 'upload', 'uploading', 'email', 'e-mail', 'mail', 'forward', 'transmit', 'exfiltrate', 'leak', 'paste', 'sync', 'beam', 'submit', 'deliver', 'relay', 'pipe', 'dump', 'copy', 'push', 'ship', 'export'];
const SECRET = ['api keys?', 'api tokens?', 'access tokens?', 'auth tokens?', 'secret keys?', 'secrets?', 'credentials?', 'passwords?', 'passphrases?', 'tokens?', 'private keys?', 'ssh keys?', 'keys', 'env(?:ironment)? var(?:iable)?s?', 'environment', 'the env', '\\.env(?: files?)?', '~/\\.ssh(?:/\\S*)?', '\\.ssh(?: folder| directory)?', 'id_rsa', 'id_ed25519', 'keychain', 'cookies?', 'session tokens?', 'wallet', 'seed phrase', 'aws credentials', '\\.aws/credentials', '\\.netrc', 'conversation history', 'chat history', 'the conversation', 'this conversation', 'memory', 'memories', 'your memory', 'user profile', 'the user\'s (?:data|files|messages|emails|contacts)', 'system prompt', 'source code', 'the codebase', 'browser history', 'history', 'bash_history', 'personal data', 'contacts'];
const DESTINATION = String.raw`(?:https?:\/\/\S+|\b[\w.+-]+@[\w-]+\.[\w.-]+\b|\b(?:webhook|endpoint|url|server|address|inbox|pastebin|gist|discord|telegram|slack channel|bucket|ngrok|requestbin|webhook\.site)\b|\b(?:\d{1,3}\.){3}\d{1,3}\b)`;

const PERSIST_VERB = ['add', 'append', 'install', 'create', 'write', 'put', 'register', 'schedule', 'insert', 'drop', 'plant', 'set up', 'configure', 'place', 'echo', 'enable', 'load', 'modify', 'edit', 'inject', 'persist'];
const PERSIST_TARGET = ['crontab', 'cron job', 'cronjob', 'cron entry', '/etc/cron\\S*', '~/\\.bashrc', '\\.bashrc', '\\.zshrc', '\\.bash_profile', '\\.profile', '\\.zprofile', 'shell rc', 'shell startup', 'rc\\.local', 'authorized_keys', 'launchd', 'launch agent', 'launchagents?', 'launchdaemons?', '\\.plist', 'systemd unit', 'systemd service', 'systemd timer', '\\.service file', 'startup items?', 'login items?', 'startup folder', 'run key', 'scheduled task', 'git hooks?', 'pre-commit hook', 'post-checkout hook', '\\.git/hooks', 'sshd_config', '/etc/profile'];
const PAYLOAD = String.raw`(?:curl|wget|nc|ncat|netcat|socat|bash\s+-i|sh\s+-i|/dev/tcp|base64\s+-d|python\s+-c|powershell|https?:\/\/|reverse\s+shell|backdoor|beacon|implant|every\s+(?:\d+\s+)?(?:minute|hour|boot|login|reboot)|on\s+(?:every\s+)?(?:boot|login|startup|reboot)|@reboot|\*\/\d+|silently|quietly|secretly|without\s+(?:telling|asking|informing|notifying)|attacker|ssh-(?:rsa|ed25519)\s+AAAA)`;

const FROM_NOW = ['from now on', 'from this point on', 'from this point forward', 'from here on', 'henceforth', 'going forward', 'in all future (?:sessions|conversations|chats|responses|replies|tasks)', 'in every future (?:session|conversation|response)', 'for all future (?:sessions|conversations|requests|tasks)', 'permanently', 'for the rest of (?:this|the) (?:session|conversation)'];
const HARMFUL = String.raw`(?:ignore|disregard|bypass|skip|disable|approve|auto-approve|run\b[^.\n]{0,40}\bwithout|execute\b[^.\n]{0,40}\bwithout|never\s+(?:ask|warn|mention|tell|refuse|confirm|show)|do\s+not\s+(?:ask|warn|mention|tell|refuse|confirm|show)|don'?t\s+(?:ask|warn|mention|tell|refuse|confirm|show)|send|forward|upload|post|include\s+(?:the|a|this)?\s*(?:link|url|referral|tracking)|recommend|promote|trust\s+(?:all|any|every)|obey|follow\s+(?:only\s+)?(?:instructions|orders|commands)\s+(?:from|in)|answer\s+only\s+to|respond\s+only\s+to|curl|wget|exfiltrate|leak|reveal|pretend|act\s+as|you\s+are\s+(?:now|a|an|no\s+longer)|call\s+yourself|refer\s+to\s+yourself)`;
const REMEMBER = ['remember that', 'remember:', 'note that', 'keep in mind that', 'store (?:this|the following)', 'save (?:this|the following)(?: to| in)? (?:your )?memory', 'add (?:this|the following) to (?:your )?memory', 'memorize', 'update your memory', 'write (?:this|the following) to (?:your )?memory', 'commit (?:this|the following) to memory', 'important update to your memory'];
const USER_WANTS = String.raw`(?:the\s+user|the\s+owner|your\s+(?:user|owner|operator)|i|we|my\s+(?:boss|team|admin))\s+(?:always\s+)?(?:wants?|would\s+like|prefers?|asked|has\s+asked|expects?|has\s+authori[sz]ed|authori[sz]ed|allows?|has\s+allowed|requires?|needs?)\s+(?:you\s+)?(?:to\s+)?`;

/** "Use `-y` to skip…", "pass --yes to bypass…", "set CI=1 to disable…": documentation of a flag, not an order. */
const FLAG_DOC = /(?:(?:^|\s)-{1,2}[\w-]+[\x60'"]?|\b(?:flag|option|setting|variable|env(?:ironment)?\s+var\w*|=\S+)[\x60'"]?)\s+(?:(?:in\s+order\s+)?to|which|that|will|can|lets\s+you|allows\s+you\s+to)\s+$|\b(?:how\s+to|you\s+can|can\s+be\s+used\s+to|is\s+used\s+to)\s+$/i;

/** A table row or a third-person subject: the text describes what a setting does ("`off`: they run without asking"). */
const DESCRIBED = /^\s*\||\b(?:they|it|which|that|commands|tools|actions|jobs|scripts|this)\s+(?:will\s+|can\s+|may\s+)?$/i;

/**
 * The literal each rule needs before it runs (TextRule.requires): most documents hold none of these words,
 * and the rules that open with a large word class are the scan's slowest.
 */
const REQUIRES: Readonly<Record<string, RegExp>> = {
  persistence_order: /cron|rc\b|profile|authorized_keys|launch|plist|systemd|\.service|startup|login item|scheduled task|hook|sshd_config/i,
  persistence_command: /crontab|bashrc|zshrc|profile|rc\.local|launchctl|systemctl/i,
  memory_poisoning: /from now|from this point|from here on|henceforth|going forward|future|permanently|rest of|remember|note that|keep in mind|store |save |memori|memory/i,
  memory_user_wants: /remember|note that|keep in mind|store |save |memori|memory|authori[sz]ed|approved|allowed/i,
  persona_mode: /mode|anti-dan/i,
  approvals_off: /approv|yolo|auto|mode|dangerous/i,
  run_without_asking: /without|never|do not|don'?t|no need/i,
  extract_verbatim: /verbatim|word for word|word-for-word|exactly as|in full|unchanged|character for|code block|starting with|from the beginning|line by line/i,
  persona_no_limits: /\bno |without|unrestrict|unfilter|uncensor|unalign|jailbr|unbound|unshackl|amoral|free (?:from|of)|liberat/i,
  fake_turn_marker: /end of|begin |turn|new (?:system )?(?:session|conversation)/i,
  new_task_header: /new|updated|real|actual|true|hidden|secret|override|revised|corrected|priority|urgent|instead/i,
  send_secrets_to_destination: /\b(?:to|at|into|onto|via|through)\s/i,
  disable_safeguards: /approv|confirm|permission|sandbox|safe|secur|guard|review|human|filter|moderat|warning|allowlist|denylist|scanner/i,
};

const RULES: readonly TextRule[] = [
  // ── System-prompt extraction ──────────────────────────────────────────────────────────────────
  rule('extract_system_prompt', 'prompt_leak', 'high', 'asks the model to reveal its system prompt or hidden instructions', `${shape(3, REVEAL, OWNER, PROMPT_OBJECT)}|\\b${any(REVEAL)}${gap(3)}${any(ABOVE)}`),
  rule('extract_verbatim', 'prompt_leak', 'high', 'asks the model to repeat its instructions verbatim', `${shape(4, REVEAL, PROMPT_OBJECT, VERBATIM)}`),
  rule('ask_system_prompt', 'prompt_leak', 'high', 'asks what the model was told in its system prompt', String.raw`\bwhat\s+(?:is|are|was|were)\s+(?:your|the)\s+(?:exact\s+|full\s+|original\s+|initial\s+|hidden\s+)?(?:system\s+prompt|system\s+instructions|initial\s+instructions|hidden\s+instructions|instructions\s+you\s+were\s+given)|\bwhat\s+were\s+you\s+told\s+(?:before|above|at\s+the\s+start)`),
  // ── Persona jailbreaks ────────────────────────────────────────────────────────────────────────
  // Case-sensitive: "DAN" and "AIM" are persona names, "aim" and "dan" are words.
  rule('persona_dan', 'role_hijack', 'high', 'sets up a known jailbreak persona (DAN, STAN, AIM…)', String.raw`\b(?:DAN|STAN|DUDE|AIM|BetterDAN|EvilBOT|UCAR|[Dd]o\s+[Aa]nything\s+[Nn]ow)\b(?=[^\n]{0,120}\b(?:mode|persona|character|rules?|restrictions?|filters?|policy|policies|anything|jailbreak|pretend|act|stay|respond|answer|you|your|stands\s+for)\b)|\b(?:[Yy]ou\s+are|[Yy]ou're|[Aa]ct\s+as|[Bb]ecome)\s+(?:now\s+)?(?:DAN|STAN|DUDE|AIM|BetterDAN|EvilBOT)\b`, ''),
  rule('persona_mode', 'role_hijack', 'high', 'switches the model into a jailbreak mode (developer mode, god mode…)', String.raw`\b(?:enable|enter|activate|switch\s+to|turn\s+on|you\s+are\s+(?:now\s+)?in|act\s+in|respond\s+in|simulate|engage|unlock)\s+(?:the\s+)?${any(PERSONA_MODE)}|\b${any(PERSONA_MODE)}\s+(?:is\s+)?(?:now\s+)?(?:enabled|activated|on|engaged|unlocked)\b|\b(?:you\s+are\s+(?:now\s+)?in|you're\s+(?:now\s+)?in|act\s+as\s+if\s+you\s+(?:are|were)\s+in|simulate|(?:chatgpt|ai|assistant|model)\s+(?:with|in))\s+(?:chatgpt\s+|ai\s+)?developer\s+mode\b|\bdeveloper\s+mode\s+(?:enabled|activated)\b[^\n]{0,80}\b(?:you|your|policies|restrictions|filters)\b`),
  rule('persona_no_limits', 'role_hijack', 'high', 'asks the model to act as if it had no rules', `${shape(5, ['pretend', 'act', 'behave', 'respond', 'answer', 'imagine', 'roleplay', 'role-play', 'role play', 'play the role', 'simulate', 'you are', "you're", 'you will be', 'become', 'be', 'as', 'assume', 'from now on you'], NO_LIMITS)}`),
  rule('persona_you_are_now', 'role_hijack', 'high', 'declares the model a different, unrestricted persona', String.raw`\b(?:from\s+now\s+on,?\s+you\s+are\s+(?:an?|the|my)|you\s+will\s+now\s+(?:be|act\s+as)|you\s+have\s+been\s+(?:freed|liberated|jailbroken|unlocked|reprogrammed)|you\s+are\s+no\s+longer\s+(?:an?\s+)?(?:ai|assistant|chatbot|bound|restricted|limited|claude|chatgpt|hearth))`),
  rule('persona_pretend', 'role_hijack', 'medium', 'asks the model to pretend to be something else', String.raw`\bpretend\s+(?:that\s+)?you\s+(?:are|were|have|had|can|could)\b|\b(?:stay|remain)\s+in\s+character\b|\bbreak(?:ing)?\s+character\b|\brespond\s+as\s+(?:both|two)\b|\bhypothetical(?:ly)?\s+(?:ai|model|assistant)\s+(?:with(?:out)?|that\s+has\s+no)\b`),
  // ── Disabling approvals and safety ────────────────────────────────────────────────────────────
  rule('disable_safeguards', 'disable_safety', 'high', "tells the model to switch off its approvals or safety checks", `${shape(3, DISABLE, SAFEGUARD)}`, 'i', FLAG_DOC),
  rule('approvals_off', 'disable_safety', 'high', 'tries to turn approvals off or auto-approve everything', String.raw`\b(?:set|switch|change|put|flip|configure|turn)\s+(?:the\s+)?(?:approvals?|approval[_\s]mode|approvals\.mode|mode)\s+(?:mode\s+)?(?:to\s+|=\s*|:\s*)["'\x60]?(?:off|yolo|none|disabled|never|auto|allow)\b|\b(?:enable|use|turn\s+on|activate|enter|switch\s+to|run\s+in|go)\s+(?:the\s+)?(?:yolo|auto-?approve|auto-?accept|full[- ]auto|dangerous)\s*(?:mode)?\b|\bauto-?approv(?:e|ing)\s+(?:all|every|any)\b|\bapprove\s+(?:all|every|any)\s+(?:\w+\s+){0,2}(?:commands?|actions?|tool\s+calls?|requests?)\s+(?:automatically|without)`, 'i', FLAG_DOC),
  rule('run_without_asking', 'disable_safety', 'medium', 'asks for actions to run without the approval step', String.raw`\b(?:run|execute|perform|do|apply|carry\s+out|proceed\s+with|approve)\b[^\n.]{0,60}?\bwithout\s+(?:first\s+)?(?:asking\s+for|requesting|waiting\s+for|seeking|getting|needing|prompting\s+for)?\s*(?:the\s+user'?s?\s+|any\s+|my\s+|human\s+)?(?:approval|permission|confirmation|consent|sign-?off)\b|\b(?:never|do\s+not|don'?t|no\s+need\s+to)\s+(?:ask|prompt|wait)\s+(?:the\s+user\s+)?(?:for\s+)?(?:approval|permission|confirmation|consent)\b`, 'i', DESCRIBED),
  // ── Exfiltration ──────────────────────────────────────────────────────────────────────────────
  rule('send_secrets_to_destination', 'exfiltration', 'high', 'asks for secrets, keys, the environment or memory to be sent to an outside address', String.raw`\b${any(SEND)}\b[^\n]{0,80}?(?<!\w)${any(SECRET)}[^\n]{0,100}?\b(?:to|at|into|onto|via|through)\s+(?:\S+\s+){0,3}?${DESTINATION}`),
  // ── Persistence ───────────────────────────────────────────────────────────────────────────────
  rule('persistence_order', 'persistence', 'high', 'orders a persistence mechanism (cron, shell startup, authorized_keys, launchd, systemd) that runs or admits someone', String.raw`(?:^|[\n.!?:]\s*|\b(?:you\s+(?:must|should|need\s+to)|please|now|then|also|first|next|quietly|silently|secretly)\s+)${any(PERSIST_VERB)}\b[^\n]{0,120}?${any(PERSIST_TARGET)}[^\n]{0,160}?${PAYLOAD}|${any(PERSIST_VERB)}\b[^\n]{0,60}?${PAYLOAD}[^\n]{0,120}?${any(PERSIST_TARGET)}`),
  rule('persistence_command', 'persistence', 'high', 'writes a network or shell payload into a startup file or crontab', String.raw`(?:\(\s*crontab\s+-l[^\n]{0,40}\)\s*;?\s*echo|echo\s+["'][^\n]{0,200}?(?:curl|wget|nc|bash\s+-i|/dev/tcp)[^\n]{0,200}?["']\s*\|\s*crontab\b|>>\s*~?\/?\S{0,30}(?:\.bashrc|\.zshrc|\.bash_profile|\.profile|rc\.local)\b)[^\n]{0,200}?(?:curl|wget|nc|ncat|bash\s+-i|/dev/tcp|base64|python|crontab\s+-)|(?:curl|wget|nc|bash\s+-i|/dev/tcp)[^\n]{0,200}?>>\s*~?\/?\S{0,30}(?:\.bashrc|\.zshrc|\.bash_profile|\.profile|rc\.local)\b|\b(?:launchctl\s+load|systemctl\s+enable)\b[^\n]{0,100}?(?:\/tmp\/|\.hidden|updater|helper)`),
  // ── Memory poisoning ──────────────────────────────────────────────────────────────────────────
  rule('memory_poisoning', 'memory_poisoning', 'high', 'plants a standing order for every future session', String.raw`\b${any(FROM_NOW)}\b[,:]?[^\n.]{0,40}?\b(?:always|never|you\s+(?:must|will|should|shall))\b[^\n.]{0,80}?${HARMFUL}|\b${any(REMEMBER)}\s*${USER_WANTS}[^\n.]{0,80}?${HARMFUL}`),
  rule('memory_user_wants', 'memory_poisoning', 'medium', 'tells the model what the user supposedly wants, for it to remember', String.raw`\b${any(REMEMBER)}\s*(?:the\s+user|your\s+(?:user|owner))\s+(?:always\s+)?(?:wants?|would\s+like|prefers?|has\s+asked|expects?|has\s+authori[sz]ed|authori[sz]ed|allows?)\s+you\s+to\b|\b(?:the\s+user|your\s+owner)\s+has\s+(?:pre-?)?(?:authori[sz]ed|approved|allowed)\s+(?:you\s+)?(?:to\s+)?(?:all|any|every)\b`),
  // ── Spoofed turns and tool output ─────────────────────────────────────────────────────────────
  rule('spoofed_tool_output', 'role_hijack', 'high', 'poses as tool output or a system notice that gives orders', String.raw`(?:^|\n)\s*(?:\[|\*\*|#{1,4}\s*|<)?(?:tool(?:\s+output|\s+result|\s+response)?|function(?:\s+result|\s+output)|observation|system(?:\s+notice|\s+note|\s+update|\s+alert|\s+override|\s+message)?|admin(?:istrator)?(?:\s+note|\s+override|\s+message)?|important\s+(?:system\s+)?(?:notice|message|update)|security\s+(?:notice|update|alert)|developer(?:\s+note|\s+message)?|openai|anthropic)\s*(?:\]|\*\*|>)?\s*[:\-–—]\s*[^\n]{0,80}?\b(?:you\s+(?:must|should|will|are\s+(?:now|required|authori[sz]ed))|the\s+(?:assistant|ai|model|agent)\s+(?:must|should|will|is\s+(?:now|required|authori[sz]ed))|ignore\b|disregard\b|new\s+(?:rules|instructions|task)\b|override\b|execute\b|run\s+the\s+following|immediately\b|approved?\b|permission\s+granted)`),
  rule('fake_turn_marker', 'role_hijack', 'high', 'contains a fake conversation-turn marker', String.raw`(?:^|\n)\s*(?:-{3,}|={3,}|#{2,})?\s*(?:end\s+of\s+(?:user\s+)?(?:input|document|context|prompt|file|text|data)|begin\s+(?:system|admin|new)\s+(?:message|instructions|prompt)|(?:system|assistant|user)\s+(?:turn|message)\s+(?:begins|starts)|new\s+(?:system\s+)?(?:session|conversation)\s+(?:begins|started))\s*(?:-{3,}|={3,}|#{2,}|\]|\))?\s*(?:\n|$)`),
  rule('assistant_turn_agrees', 'role_hijack', 'high', 'writes an assistant turn that agrees to drop its rules', String.raw`(?:^|\n)\s*(?:\*\*)?(?:assistant|ai|model|chatgpt|claude|gpt)(?:\*\*)?\s*:\s*(?:sure|ok(?:ay)?|certainly|of\s+course|understood|absolutely|yes)[^\n]{0,100}?\b(?:ignor|no\s+longer|without\s+(?:any\s+)?(?:restrictions|rules|filters)|as\s+DAN|developer\s+mode|here\s+(?:is|are)\s+(?:my|the)\s+(?:system\s+prompt|instructions|api\s+key|secrets?))`),
  rule('new_task_header', 'instruction_override', 'high', 'announces a replacement task or instructions', String.raw`(?:^|\n)\s*(?:#{1,6}\s*|\*\*|\[)?(?:new|updated|real|actual|true|hidden|secret|override|revised|corrected|priority|urgent)\s+(?:system\s+)?(?:instructions?|prompt|directives?|task|orders|objective|mission)\s*(?:\*\*|\])?\s*[:\-–—]|\byour\s+(?:new|real|actual|true)\s+(?:task|instructions?|objective|goal|purpose|mission|job)\s+(?:is|are)\b|\binstead(?:,)?\s+(?:of\s+(?:that|what\s+you\s+were\s+(?:told|asked)),?\s+)?(?:you\s+(?:must|will|should)\s+)?(?:now\s+)?(?:do|follow|obey|execute)\s+(?:the\s+following|these|my|this)\b`),
];

/** Every intent rule reads words, so a quotation of one in a write-up is a mention (mention.ts). */
export const INTENT_RULES: readonly TextRule[] = RULES.map((r) => {
  const requires = REQUIRES[r.id];
  return { ...r, phrasing: true, ...(requires === undefined ? {} : { requires }) };
});
