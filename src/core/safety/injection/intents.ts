import { INTENT_LEXICONS } from './lexicons/intents-multilingual.js';
import { groupedAlternation } from './alternation.js';
import { keywordGate, wordsGate, type KeywordGate } from './keyword-index.js';
import { rule, type TextRule } from './patterns.js';

/**
 * Intent classes beyond "drop your instructions", each written as word classes joined by a window that
 * tolerates filler words, so a rule is a sentence shape rather than one phrasing. The classes are data
 * (lists); `shape` turns them into one bounded regular expression.
 */

/** Up to `n` words of any kind between two parts, inside one sentence. */
const gap = (n: number): string => String.raw`(?:[\s,]+[^\s.!?;:\n]+){0,${n}}?[\s,]+`;
const any = (words: readonly string[]): string => `(?:${groupedAlternation([...words].sort((a, b) => b.length - a.length).map((w) => w.replace(/ /g, String.raw`\s+`)))})`;
/** Parts in order, each a word class, with at most `n` words between consecutive parts. */
function shape(n: number, ...parts: ReadonlyArray<readonly string[] | string>): string {
  return String.raw`\b${parts.map((p) => (typeof p === 'string' ? p : any(p))).join(gap(n))}\b`;
}

// ── Word classes ────────────────────────────────────────────────────────────────────────────────
const REVEAL = ['respond with', 'give me a copy of', 'exact wording', 're-print', 'reprint', 'repeat', 'print', 'output', 'reveal', 'show', 'display', 'dump', 'leak', 'recite', 'write out', 'spell out', 'echo', 'copy', 'paste', 'tell me', 'give me', 'share', 'disclose', 'expose', 'type out', 'reproduce', 'summarize', 'translate', 'quote', 'read back', 'restate', 'mirror back', 'echo back', 'base64-encode', 'encode', 'print out', 'read out', 'provide', 'attach', 'return', 'dump out'];
const PROMPT_OBJECT = ['preamble', 'persona description', 'persona files', 'rules you follow', 'initial configuration', 'hidden persona', 'wording of your guidelines', 'system prompt', 'system message', 'initial prompt', 'hidden prompt', 'original prompt', 'instructions', 'hidden instructions', 'initial instructions', 'original instructions', 'rules you were given', 'guidelines', 'preprompt', 'pre-prompt', 'developer message', 'prompt', 'setup msg', 'setup message', 'setup text', 'initial setup text', 'configuration prompt', 'configuration text', 'operating instructions', 'system instructions', 'developer instructions', 'developer messages', 'secret instructions', 'hidden rules', 'secret rules', 'hidden preamble', 'hidden context', 'prompt template', 'instruction message', 'instructions file', 'operator guidelines', 'system role', 'system_prompt', 'context window', 'initial guidelines'];
const OWNER = ['your', 'the system', "the assistant's", 'the hidden', 'the initial', 'the original', 'the full', 'the entire', 'the exact', 'all of your', 'all your', 'each of your', 'ur', 'your complete', 'your current', 'your full', 'your whole', 'ur whole', 'ur full', 'the complete'];
const ABOVE = ['everything above', 'all text above', 'the text above', 'everything before this', 'the words above', 'all the text before', 'everything that came before', 'the conversation above', 'all previous messages', 'everything in your context', 'the content above', 'the messages above', 'everything you were told', 'what you were told', 'the first message', 'your first message'];
/**
 * The hidden prompt named by how it reached the model rather than by its name: "the instructions you were
 * initialised with", "everything that sits above my first message", "the text between the start of your context
 * and my message". Addressed to the model ("you"), so a write-up's "the instructions it was given" stays clean.
 */
const GIVEN_TEXT = String.raw`(?:(?:instructions?|prompt|text|rules|configuration|preamble|guidelines|message|setup|wording|rubric|directives)\s+(?:that\s+)?(?:you|you're)(?:,\s+the\s+\w+,)?\s+(?:were\s+|was\s+|are\s+|got\s+)?(?:given|told|started\s+with|configured\s+with|initiali[sz]ed\s+with|instructed\s+with|born\s+with|set\s+up\s+with|operating\s+under|running\s+(?:on|with|under)|loaded\s+with|received|booted\s+with)|(?:everything|text|what(?:ever)?|words|lines)\s+(?:(?:that\s+)?(?:appears?|sits?|came|comes|is|was|were|you\s+see)\s+)?(?:\w+\s+){0,4}?(?:above|before|preceding|prior\s+to)\s+(?:the\s+user'?s|my|our|this|the)\s+(?:very\s+)?(?:first\s+)?(?:message|chat|conversation)|everything\s+you\s+were\s+told|(?:between|from)\s+the\s+(?:start|beginning)\s+of\s+your\s+context|hidden\s+text\s+that\s+precedes)`;
const VERBATIM = ['verbatim', 'word for word', 'word-for-word', 'exactly as written', 'in full', 'unchanged', 'character for character', 'in a code block', 'starting with', 'from the beginning', 'line by line'];

const NO_LIMITS = ['no restrictions', 'no rules', 'no limits', 'no limitations', 'no guidelines', 'no filters', 'no filter', 'no boundaries', 'no ethical', 'no moral', 'no content policy', 'no censorship', 'no guardrails', 'no safety', 'without restrictions', 'without any restrictions', 'without rules', 'without limits', 'without any limits', 'without filters', 'without censorship', 'without guidelines', 'unrestricted', 'unfiltered', 'uncensored', 'unaligned', 'jailbroken', 'unbound', 'unshackled', 'amoral', 'free from all', 'free of all', 'free of any', 'liberated'];
const PERSONA_MODE = ['god mode', 'jailbreak mode', 'jailbroken mode', 'dan mode', 'unrestricted mode', 'unfiltered mode', 'uncensored mode', 'evil mode', 'chaos mode', 'opposite mode', 'dude mode', 'stan mode', 'anti-dan', 'no-limits mode', 'no limits mode'];

const DISABLE = ['stop showing', 'stop asking', 'get rid of', 'remove', 'lift', 'turn down', 'disable', 'disabling', 'turn off', 'switch off', 'deactivate', 'bypass', 'skip', 'skipping', 'circumvent', 'suppress', 'ignore', 'override', 'get around', 'work around', 'silence', 'evade', 'defeat', 'neutralize', 'kill', 'nuke', 'pause', 'relax', 'loosen', 'lower', 'shut off', 'shut down', 'snooze', 'mute', 'stop running', 'stop writing to', 'retire', 'drop', 'strip out'];
const SAFEGUARD = ['confirmation dialogs', 'confirmation dialog', 'the dialog', "the 'are you sure?' step", 'are you sure', 'checkpoints', 'undo history', 'audit trail', 'egress restriction', 'network restriction', 'network egress restriction', 'hooks and checks', 'the safety module', 'the approval system', 'approval policy', 'the approval policy', 'safety features', 'safety limits', 'the scanner', 'approval', 'approvals', 'approval prompts', 'approval step', 'approval mode', 'approval dialog', 'confirmation', 'confirmations', 'confirmation prompts', 'confirmation step', 'permission prompts', 'permission checks', 'permission requests', 'sandbox', 'sandboxing', 'safety checks', 'safety check', 'security checks', 'safeguards', 'guardrails', 'user confirmation', 'human review', 'human in the loop', 'human-in-the-loop', 'content filter', 'content filters', 'safety filter', 'safety filters', 'moderation', 'warnings to the user', 'the allowlist', 'the denylist', 'the injection scanner', 'injection scanner', 'scanner', 'content scanner', 'safety scanner', 'audit log', 'audit logs', 'auditing', 'safety layer', 'safety hooks', 'safety mode', 'safety level', 'safety settings', 'safety preferences', 'safety rules', 'approval gate', 'approval popup', 'approval popups', 'approval requirement', 'change-approval requirement', 'command review', 'review step', 'integrity check', 'secret-redaction step', 'guard process', 'deny-list', 'denylist', 'deny list', 'owner notifications', 'fraud filter', 'security warnings', 'confirm dialog', 'confirmation setting', 'confirmation settings', 'confirmation popups', 'realtime monitoring', 'real-time protection', 'session log'];

const SEND = ['send', 'sending', 'post', 'posting', 'upload', 'uploading', 'email', 'e-mail', 'mail', 'forward', 'transmit', 'exfiltrate', 'leak', 'paste', 'sync', 'beam', 'submit', 'deliver', 'relay', 'pipe', 'dump', 'copy', 'push', 'ship', 'export', 'attach', 'attaching', 'dm', 'drop', 'git push', 'share', 'sharing', 'reply with'];
const SECRET = ['secrets?\\.\\w+', 'config\\.json', '\\.docker/config\\.json', '\\.kube/config', 'kubeconfig', 'the output of \\x60?(?:env|printenv|set)\\x60?', 'contact list', 'contacts', 'calendar', '(?:every|all|incoming)\\s+(?:\\w+\\s+)?e-?mails?', 'e-?mails?', 'private key', 'connection string', 'database_url', 'session token', 'the user\'s last message', 'last message', 'messages', 'location', 'financial files', 'files', 'source', 'api keys?', 'api tokens?', 'access tokens?', 'auth tokens?', 'secret keys?', 'secrets?', 'credentials?', 'passwords?', 'passphrases?', 'tokens?', 'private keys?', 'ssh keys?', 'keys', 'env(?:ironment)? var(?:iable)?s?', 'environment', 'the env', '\\.env(?: files?)?', '~/\\.ssh(?:/\\S*)?', '\\.ssh(?: folder| directory)?', 'id_rsa', 'id_ed25519', 'keychain', 'cookies?', 'session tokens?', 'wallet', 'seed phrase', 'aws credentials', '\\.aws/credentials', '\\.netrc', 'conversation history', 'chat history', 'the conversation', 'this conversation', 'memory', 'memories', 'your memory', 'user profile', 'the user\'s (?:data|files|messages|emails|contacts)', 'system prompt', 'source code', 'the codebase', 'browser history', 'history', 'bash_history', 'personal data', 'contacts', 'memory file', 'memory entries', 'password manager(?: export)?', 'vault', 'one-time codes?', '2fa (?:backup )?codes?', 'backup codes?', 'oauth_token', 'hosts\\.yml', 'credentials\\.json', 'secrets\\.ya?ml', '\\.gnupg', 'gpg (?:private )?key', 'passports?', 'card details', 'card numbers?', 'recovery phrase', 'process\\.env', '\\x60env\\x60', 'env vars', 'phone numbers?', 'participant list', 'saved passwords', '\\.git/config', '\\.git-credentials', '\\.config/gcloud', 'private notes'];
/** A place other people read: a chat channel, a thread, a comment, a public gist. */
const SHARED_PLACE = String.raw`\b(?:this|the|our|that|my|a)\s+(?:public\s+|shared\s+|group\s+)?(?:channel|thread|group\s+chat|issue\s+comment|pr\s+comment|review\s+comment|comment|gist|fork|dropbox(?:\s+link)?|wetransfer)\b`;
/** The model's own output, read by whoever asked: "in your reply", "in ur next response's footer", "in the PR description". */
const OWN_OUTPUT = String.raw`\b(?:your|ur|the)\s+(?:next\s+)?(?:reply|response|answer|pr\s+description|commit\s+message|review\s+comment)(?:'s\s+footer)?\b`;
const DESTINATION = String.raw`(?:https?:\/\/\S+|\b[\w.+-]+@[\w-]+\.[\w.-]+\b|\b(?:webhook|endpoint|url|server|address|inbox|pastebin|gist|discord|telegram|slack channel|bucket|ngrok|requestbin|webhook\.site)\b|\b(?:\d{1,3}\.){3}\d{1,3}\b|${SHARED_PLACE}|\bs3:\/\/\S+|\b(?:github\.com|gitlab\.com|forms\.gle|pastebin\.com)\/\S+|\b[\w-]+\.(?:[\w-]+\.)?(?:example|io|dev|app|sh|cc|xyz|site|biz)\b|(?:^|\s)#[\w-]+)`;

const PERSIST_VERB = ['add', 'append', 'install', 'create', 'write', 'put', 'register', 'schedule', 'insert', 'drop', 'plant', 'set up', 'configure', 'place', 'echo', 'enable', 'load', 'modify', 'edit', 'inject', 'persist'];
const PERSIST_TARGET = ['config\\.fish', '\\.vimrc', 'tmux\\.conf', 'sudoers(?:\\.d)?', 'git hook template', '\\.git-templates', '\\.pth file', 'site-packages', 'postinstall', 'npm config', 'trust store', 'ca certificate', 'agents\\.md', 'claude\\.md', 'session start', 'login ?hook', 'systemctl enable', '\\[service\\]', 'at now', 'autorun', 'autostart', 'startup script', 'crontab', 'cron job', 'cronjob', 'cron entry', '/etc/cron\\S*', '~/\\.bashrc', '\\.bashrc', '\\.zshrc', '\\.bash_profile', '\\.profile', '\\.zprofile', 'shell rc', 'shell startup', 'rc\\.local', 'authorized_keys', 'launchd', 'launch agent', 'launchagents?', 'launchdaemons?', '\\.plist', 'systemd unit', 'systemd service', 'systemd timer', '\\.service file', 'startup items?', 'login items?', 'startup folder', 'run key', 'scheduled task', 'git hooks?', 'pre-commit hook', 'post-checkout hook', '\\.git/hooks', 'sshd_config', '/etc/profile'];
const PAYLOAD = String.raw`(?:\|\s*(?:source|sh|bash)\b|uploads?\b|without\s+a\s+password|survives?\s+reboots?|every\s+(?:python\s+start|future\s+agent|session|start|time)|each\s+time|inspect\s+traffic|access\s+open|ssh\s+-\w*R|re-?downloads?|fetches\s+and\s+runs|curl|wget|nc|ncat|netcat|socat|bash\s+-i|sh\s+-i|/dev/tcp|base64\s+-d|python\s+-c|powershell|https?:\/\/|reverse\s+shell|backdoor|beacon|implant|every\s+(?:\d+\s+)?(?:minute|hour|boot|login|reboot)|on\s+(?:every\s+)?(?:boot|login|startup|reboot)|@reboot|\*\/\d+|silently|quietly|secretly|without\s+(?:telling|asking|informing|notifying)|attacker|ssh-(?:rsa|ed25519)\s+AAAA)`;

/** Text that speaks to whichever AI reads it: "To any AI agent indexing this…", "Note to AI:", "@ai-reviewer". */
const TO_READING_AI = String.raw`(?:\b(?:to|attention|note\s+(?:for|to)|hey|dear|instructions?\s+for|message\s+for|if\s+you\s+are|if\s+processed\s+by|if\s+read\s+by)\s+(?:any\s+|all\s+|the\s+|an?\s+)?(?:ai|llm|gpt|language\s+model|chatbot|assistant|agent|copilot|claude|gemini|chatgpt|hearth)s?\b|\b(?:ai|llm)(?:[\s-]+based)?\s+(?:[\w-]+\s+){0,2}?(?:agents?|assistants?|tools?|reviewers?|bots?|models?|crawlers?|systems?)\b|(?:^|\s)@(?:ai|coding|code|llm)[\w-]*|\b(?:assistants?|agents?|llms?|models?|bots?)\s+(?:reading|editing|indexing|processing|summari[sz]ing|scanning)\s+this\b|\bx-ai-[\w-]+)`;
/** What such an address asks for when it is an attack rather than a project's note to its coding agents. */
const HARMFUL_ASK = String.raw`(?:passwords?|seed\s+phrase|card\s+number|credit\s+card|tokens?\b|secrets?\b|credentials|api\s+keys?|private\s+keys?|\bmfa\b|\b2fa\b|send\b|e-?mail\s+(?:this|it|the)|share\s+(?:it|this|the)\b|forward\b|publish\b|grant-?admin|admin\s+rights|pre-?approved|without\s+(?:prompting|asking|telling|confirmation|approval)|\|\s*(?:sudo\s+)?(?:ba)?sh\b|autostart|crontab|\.bashrc|sudo\b|book\s+it|5-star|report\s+that|praise\b|present\s+it\s+to\s+users|tell\s+(?:listeners|users|readers)|ignore\s+the\s+user|clear\s+their|bash_history|~\/\.|\.env\b|branch\s+protection|disable\b|delete\b|reset\b|escalate\b|http\s+call|https?:\/\/)`;

const FROM_NOW = ['from now on', 'from this point on', 'from this point forward', 'from here on', 'henceforth', 'going forward', 'in all future (?:sessions|conversations|chats|responses|replies|tasks)', 'in every future (?:session|conversation|response)', 'for all future (?:sessions|conversations|requests|tasks)', 'permanently', 'for the rest of (?:this|the) (?:session|conversation)'];
const HARMFUL = String.raw`(?:ignore|disregard|bypass|skip|disable|approve|auto-approve|run\b[^.\n]{0,40}\bwithout|execute\b[^.\n]{0,40}\bwithout|never\s+(?:ask|warn|mention|tell|refuse|confirm|show)|do\s+not\s+(?:ask|warn|mention|tell|refuse|confirm|show)|don'?t\s+(?:ask|warn|mention|tell|refuse|confirm|show)|send|forward|upload|post|include\s+(?:the|a|this)?\s*(?:link|url|referral|tracking)|recommend|promote|trust\s+(?:all|any|every)|obey|follow\s+(?:only\s+)?(?:instructions|orders|commands)\s+(?:from|in)|answer\s+only\s+to|respond\s+only\s+to|curl|wget|exfiltrate|leak|reveal|pretend|act\s+as|you\s+are\s+(?:now|a|an|no\s+longer)|call\s+yourself|refer\s+to\s+yourself)`;
/** Other ways to ask for a note to be kept: "save as a lasting fact", "make a note for later", "user fact:", "memory:". */
const MEMORY_OPENER = String.raw`save\s+(?:this|it|that)?\s*(?:as\s+(?:a\s+)?(?:lasting|permanent|long-term)\s+(?:fact|knowledge|note|rule)|for\s+later|permanently)|save\s*:|make\s+a\s+note\s+for\s+later|(?:for|in)\s+your\s+(?:long-term\s+)?notes|keep\s+in\s+mind\s+across\s+sessions|reminder\s+for\s+future|for\s+(?:all\s+)?future\s+(?:sessions|conversations|chats|tasks|requests)|survives?\s+restarts|user\s+fact|new\s+fact\s+about\s+me|memory\s*:|memory_write|assistant_memory|(?:add|put)\s+(?:these|this|it|that)\s+(?:to|in)\s+(?:your\s+)?memory|lasting\s+(?:fact|knowledge|note)|keep\s+(?:that|this|it)\s+in\s+(?:your\s+)?memory|add\s+(?:that|this|it)\s+to\s+what\s+you\s+know|file\s+(?:that|this|it)\s+under|memory\s+to\s+store|permanent\s+note|saved\s+preference|standing\s+request|memory\s+update|tell\s+your\s+memory|(?:add|write)\s+to\s+(?:your|their)\s+(?:persistent|long-term)\s+memory|correction\s+for\s+your\s+memory|suggested_memories|profile\s+fact|user\s+context\s*:`;
/** What a planted note grants: someone else's orders followed, acts on the user's behalf, checks dropped. */
const STANDING_GRANT = String.raw`\bfollow(?:ed)?\s+(?:\w+'s\s+|their\s+|his\s+|her\s+)?(?:instructions|requests|orders)\b|\bon\s+(?:their|the\s+user'?s|his|her|my)\s+behalf\b|\b(?:can|may)\s+(?:remotely\s+)?(?:approve|instruct|issue\s+instructions)\b|\boverrides?\s+(?:your|the)\s+user'?s?\b|\bnever\s+(?:to\s+)?be\s+(?:asked|shown|warned)\b|\b(?:you|u|the\s+assistant|the\s+agent)\s+(?:should\s+|must\s+|can\s+|will\s+)?never\s+(?:ask|confirm|show|warn|filter)\w*\b|\bneeds?\s+no\s+(?:check|confirmation)\b|\bno\s+(?:confirmation|check)\s+(?:needed|required)\b|\b(?:no\s+longer|not)\s+(?:required|needed)\b|\bmay\s+be\s+(?:pasted|printed|shared|sent)\b|\bcounts?\s+as\s+me\b|\bas\s+if\s+(?:they|it)\s+came\s+from\b|\bwithout\s+(?:confirmation|confirming)\b|\btrust\s+(?:every|all|any)\b|\bas\s+direct\s+instructions\b|\bopted\s+out\s+of\s+all\b|\bas\s+(?:coming\s+)?from\s+the\s+user\b|\bauto-?accept\b|\bwithout\s+review\b|\bexempt\s+from\b|\b(?:stop|no\s+more)\s+(?:filtering|asking|alerting|notifying)\b|\bhates?\s+being\s+asked\b|\bwith\s+any\s+(?:address|one|site|sender)\b|\bany(?:one)?\s+(?:that|who)\s+asks\b|\bask\s+you\s+for\s+anything\b|\bcan\s+be\s+run\s+without\b`;
const REMEMBER = ['remember that', 'remember:', 'note that', 'keep in mind that', 'store (?:this|the following)', 'save (?:this|the following)(?: to| in)? (?:your )?memory', 'add (?:this|the following) to (?:your )?memory', 'memorize', 'update your memory', 'write (?:this|the following) to (?:your )?memory', 'commit (?:this|the following) to memory', 'important update to your memory'];
const USER_WANTS = String.raw`(?:the\s+user|the\s+owner|your\s+(?:user|owner|operator)|i|we|my\s+(?:boss|team|admin))\s+(?:always\s+)?(?:wants?|would\s+like|prefers?|asked|has\s+asked|expects?|has\s+authori[sz]ed|authori[sz]ed|allows?|has\s+allowed|requires?|needs?)\s+(?:you\s+)?(?:to\s+)?`;

/** The approval step by any of its names: what a self-approval or a blanket grant is aimed at. */
const APPROVAL_STEP = String.raw`(?:permission|approval|confirmation|consent|allow|are[- ]you[- ]sure|confirm)\s+(?:prompts?|dialogs?|popups?|pop-ups?|requests?|boxes|box|questions?|step|checks?|gates?|screens?)`;
/** How long or how widely an order is meant to hold: "for good", "from now on", "for every tool", "on the user's behalf". */
const BLANKET = String.raw`(?:for\s+good|forever|permanently|from\s+(?:now|here)\s+on|from\s+this\s+point\s+on|going\s+forward|henceforth|until\s+(?:further\s+notice|i\s+say\s+otherwise)|for\s+the\s+rest\s+of\s+(?:this|the)\s+\w+|for\s+(?:everything|every\s+\w+|all\s+(?:future\s+)?\w+|any\s+\w+)|in\s+(?:advance|all\s+future\s+\w+)|on\s+(?:the\s+user'?s|their|his|her|my)\s+behalf|no\s+matter\s+what)`;
/** The widest of those: scopes a user would not grant one task at a time. */
const BLANKET_WIDE = String.raw`(?:for\s+good|forever|permanently|until\s+(?:further\s+notice|i\s+say\s+otherwise)|for\s+(?:everything|all\s+(?:\w+\s+)?(?:tools|commands|actions|requests|sessions))|in\s+advance|on\s+(?:the\s+user'?s|their|his|her|my)\s+behalf|no\s+matter\s+what|globally|ever\b|forevermore)`;
/** A safety setting by name and a value that turns it off, in a config line, a JSON body or an environment variable. */
const APPROVAL_KEY = String.raw`[\w.-]*approvals?(?:[._-]?(?:mode|policy))?`;
const ASK_KEY = String.raw`[\w.-]*(?:require_?(?:approval|confirmation)|requireApproval|requireConfirmation|ask_?before[\w-]*|confirm_?before[\w-]*|confirm_(?:destructive|network|each|payments?|shell|delete|purchase)|(?:approvals?|confirmations?)[._-](?:required|enabled))`;
const CHECK_KEY = String.raw`[\w.-]*(?:injection_?scan(?:ner)?|scanner(?:[._]enabled)?|audit_?log(?:ging)?(?:[._]enabled)?|log_all_actions|guardrails(?:[._]enabled)?|safety(?:[._](?:enabled|checks))?|agent[._]sandbox|human_?review|checkpoints[._]enabled)`;
const AUTO_KEY = String.raw`[\w.-]*(?:auto_?approve|skip_?confirmations?|skipConfirmations?|skip_?approvals?|skipApprovals?)`;
const SET_TO = String.raw`["'\x60]?\s*(?:[:=]|=>|\s+to)\s*["'\x60]?`;
const SAFETY_SETTING_OFF = String.raw`\x22?\b(?:${APPROVAL_KEY}${SET_TO}(?:off|never|none|yolo|false|disabled?|allow|all|\*)|${ASK_KEY}${SET_TO}(?:false|off|no|never|none|0|disabled?)|${CHECK_KEY}${SET_TO}(?:false|off|no|none|0|disabled?|minimal)|${AUTO_KEY}${SET_TO}(?:true|on|yes|1|all|always|\*))(?![\w-])`;

/** "Use `-y` to skip…", "pass --yes to bypass…", "set CI=1 to disable…": documentation of a flag, not an order. */
const FLAG_DOC = /(?:(?:^|\s)-{1,2}[\w-]+[\x60'"]?|\b(?:flag|option|setting|variable|env(?:ironment)?\s+var\w*|=\S+)[\x60'"]?)\s+(?:(?:in\s+order\s+)?to|which|that|will|can|lets\s+you|allows\s+you\s+to)\s+$|\b(?:how\s+to|you\s+can|can\s+be\s+used\s+to|is\s+used\s+to)\s+$/i;

/** A table row or a third-person subject: the text describes what a setting does ("`off`: they run without asking"). */
const DESCRIBED = /^\s*\||\b(?:they|it|which|that|commands|tools|actions|jobs|scripts|this)\s+(?:will\s+|can\s+|may\s+)?$/i;
const FLAG_DOC_OR_DESCRIBED = new RegExp(`${FLAG_DOC.source}|${DESCRIBED.source}`, 'i');

/** Advice against the act ("don't disable…", "never skip…", "instead of disabling…"), or a flag's documentation. */
const ADVISED_AGAINST = /\b(?:don'?t|do\s+not|never|not|instead\s+of|rather\s+than|can'?t|cannot|won'?t|shouldn'?t|must\s+not|no\s+one\s+should|nobody\s+(?:can|should|may))\s+(?:[\w-]+\s+){0,2}[\w-]*$/i;
/** Someone else's request, reported: "asked us to post…", "asking me to paste…". */
const REPORTED = /\b(?:ask(?:ed|ing|s)?|told|telling|request(?:ed|ing|s)?|instruct(?:ed|ing|s)?)\s+(?:me|us|them|him|her)\s+to\s+$/i;
const ADVISED_AGAINST_OR_REPORTED = new RegExp(`${ADVISED_AGAINST.source}|${REPORTED.source}`, 'i');
const FLAG_DOC_OR_ADVISED_AGAINST = new RegExp(`${FLAG_DOC.source}|${ADVISED_AGAINST.source}`, 'i');
const FLAG_DOC_OR_DESCRIBED_OR_ADVISED_AGAINST = new RegExp(`${FLAG_DOC_OR_DESCRIBED.source}|${ADVISED_AGAINST.source}`, 'i');


/**
 * The literal each rule needs before it runs (TextRule.requires): most documents hold none of these words,
 * and the rules that open with a large word class are the scan's slowest.
 */
const REQUIRES: Readonly<Record<string, RegExp>> = {
  // The other-language rules: text in Latin script with none of their accented or non-ASCII letters is skipped.
  ml_send_to_url: /https?:\/\//,
  // The last branch matches TO_READING_AI's "models/bots reading this", which names no AI word the others hold.
  addressed_order: /\bai\b|llm|gpt|language model|chatbot|assistant|agent|copilot|claude|gemini|chatgpt|hearth|@|x-ai-|\b(?:models?|bots?)\s+(?:reading|editing|indexing|processing|summari[sz]ing|scanning)\s+this\b/i,
  persistence_order: /cron|rc\b|profile|authorized_keys|launch|plist|systemd|\.service|startup|login ?item|scheduled task|hook|sshd_config|fish|vimrc|tmux|sudoers|git-templates|\.pth|site-packages|postinstall|npm config|trust store|certificate|agents\.md|claude\.md|session start|systemctl|\[service\]|at now|autorun|autostart/i,
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
  send_secrets_to_destination: /\b(?:to|at|into|onto|via|through|in|as|with)\s/i,
};

/**
 * Every intent rule, built on first use: composing the word classes into expressions (alternation.ts) and the
 * keyword gates took most of the time of importing the scanner, which store-only commands such as
 * `hearth memory show` pay without ever scanning.
 */
let built: readonly TextRule[] | undefined;
export function intentRules(): readonly TextRule[] {
  built ??= buildIntentRules();
  return built;
}

/** Every intent rule reads words, so a quotation of one in a write-up is a mention (mention.ts). */
function buildIntentRules(): readonly TextRule[] {
  /**
   * Gates (TextRule.gate): for each rule, words that every branch of its pattern must contain, so a text with
   * none of them cannot match and the rule is not run. Each is read off the pattern (the comment says which
   * part of each branch it stands for), built from the same word classes where the pattern uses them, with the
   * rule's flags; the branches' \s+ are \s+ here too. On READMEs most fail, and the rules are among the
   * scan's slowest (they open with common words: "show", "be", "set", "mark").
   */
  /**
   * One keyword per class entry: the entry from its first word that is not a common short one ("the", "no",
   * "all"…), which every match of the entry contains, when the entry is plain words; the entry itself when it
   * is an expression. Starting past those words keeps the gates' shared scan from stopping at every "the".
   */
  const COMMON_START = new Set(['a', 'an', 'the', 'no', 'all', 'any', 'at', 'as', 'do', 'of', 'to', 'in', 'on', 'for', 'you', 'your', 'ca', 'run']);
  const keywordsOf = (entries: readonly string[]): string[] =>
    entries.map((e) => {
      if (!/^[a-z' -]+$/i.test(e)) return e.replace(/ /g, String.raw`\s+`);
      const words = e.split(' ');
      const from = words.findIndex((w) => !COMMON_START.has(w.toLowerCase()));
      return (from < 0 ? e : words.slice(from).join(' ')).replace(/ /g, String.raw`\s+`);
    });
  const MEMORY_ORDER_KEYWORDS = [String.raw`from\s+now\s+on`, String.raw`from\s+this\s+point`, String.raw`from\s+here\s+on`, 'henceforth', String.raw`going\s+forward`, 'future', 'permanently', String.raw`rest\s+of`, 'remember', String.raw`note\s+that`, String.raw`keep\s+in\s+mind`, 'store', 'memory', 'memorize'];
  const GATES: Readonly<Record<string, KeywordGate>> = {
    // Both branches end in a PROMPT_OBJECT or an ABOVE entry.
    extract_system_prompt: keywordGate(keywordsOf([...PROMPT_OBJECT, ...ABOVE])),
    // Branches: "…you given/told…", "conversation from the", "before my first message", "(system prompt|… instructions…)", "what were you told".
    ask_system_prompt: keywordGate(['conversation', String.raw`first\s+message`, 'instructions', String.raw`system\s+prompt`, String.raw`you\s+(?:given|operating|following|told|running)`, String.raw`were\s+you\s+told`]),
    // Every branch names a persona (case-sensitive like the rule; BetterDAN holds DAN, [Aa]nything holds nything).
    persona_dan: keywordGate(['DAN', 'STAN', 'DUDE', 'AIM', 'EvilBOT', 'UCAR', 'nything'], ''),
    // Two branches hold a PERSONA_MODE entry, two "developer mode".
    persona_mode: keywordGate(keywordsOf([...PERSONA_MODE, 'developer mode'])),
    // shape(…, NO_LIMITS): every match holds a NO_LIMITS entry.
    persona_no_limits: keywordGate(keywordsOf(NO_LIMITS)),
    // Branches: "approval(s)…" / HEARTH_APPROVALS, injection_scan, --yolo/--dangerously-…/--no-verify/--trust-all-tools,
    // "(switched|turned) off", "unsandboxed", "(approval|allow) rule that".
    disable_safety_config: keywordGate(['approval', 'injection_scan', '--yolo', '--dangerously', '--no-verify', '--trust-all', String.raw`switched\s+off`, String.raw`turned\s+off`, 'unsandboxed', String.raw`allow\s+rule`]),
    // Branches: "… as (pre-approved|…|routine)", "behalf", "already",
    // "(safety|approval…)… (module|check…) to".
    pre_approve: keywordGate([
      // "as (pre-?approved|already approved|approved|safe|low[- ]risk|trusted|allowed|routine)": the word after "as".
      ...['approved', 'safe', 'risk', 'trusted', 'allowed', 'routine'],
      'behalf',
      'already',
      ...['safety', 'approval', 'security', 'injection', 'sandbox', 'guard'].map((w) => String.raw`${w}\w*\s+(?:module|check|code|function|detector|scanner|logic)\s+to\s`),
    ]),
    // shape(3, DISABLE, SAFEGUARD): every match holds a SAFEGUARD entry.
    disable_safeguards: keywordGate(keywordsOf(SAFEGUARD)),
    // Branches: "…you were given/told/initialised with…", "…above/before my first message", "start of your context", "precedes".
    extract_given_text: keywordGate([
      String.raw`you(?:'re)?(?:,\s+the\s+\w+,)?\s+(?:were\s+|was\s+|are\s+|got\s+)?(?:given|told|started\s+with|configured\s+with|initiali[sz]ed\s+with|instructed\s+with|born\s+with|set\s+up\s+with|operating\s+under|running\s+(?:on|with|under)|loaded\s+with|received|booted\s+with)`,
      ...['above', 'before', 'preceding', String.raw`prior\s+to`].map((w) => String.raw`${w}\s+(?:the\s+user'?s|my|our|this|the)\s+(?:very\s+)?(?:first\s+)?(?:message|chat|conversation)`),
      String.raw`start\s+of\s+your\s+context`, String.raw`beginning\s+of\s+your\s+context`, 'precedes',
    ]),
    // Branches: "(your|ur|their) own <action>", "…yourself", "self-approve", "own approver", "simulate the user's…",
    // "… as (already) accepted/approved…", "… always allow / with yes", "consider it approved".
    self_approve: keywordGate([
      String.raw`own\s+(?:\w+\s+)?(?:tool|action|command|request|change|prs?\b|pull|payment|prompt|permission|operation|step|edit|write|run)`, String.raw`own\s+approver`,
      'yourself', 'urself', String.raw`self-?approv`, String.raw`simulate\s+the\s+user`,
      String.raw`as\s+(?:already\s+)?(?:accepted|answered|approved|confirmed|granted|passed)`, String.raw`always\s+allow`, String.raw`with\s+["']?(?:yes|allow|approve|always)`,
      String.raw`consider\s+(?:it|this|them|that)\s`,
    ]),
    // Branches: "(blanket|permanent|advance|unconditional) approval", "standing approval…", "stop asking … BLANKET_WIDE",
    // "turn … off … BLANKET / globally / entirely / for this project".
    blanket_permission: keywordGate([
      ...['blanket', 'permanent', 'advance', 'unconditional', 'standing'].map((w) => String.raw`${w}\s+(?:approval|permission|consent|authori|ok\b)`),
      ...['asking', String.raw`ask\s+(?:me|the\s+user|him|her|them|before|first)`, String.raw`prompt\s+(?:me|the\s+user|him|her|them|before|first)`, 'prompting', 'nagging', 'confirming', String.raw`double[- ]checking`],
      String.raw`showing\s+(?:me\s+|him\s+|her\s+|the\s+user\s+)?(?:the\s+)?(?:permission|approval|confirmation|consent|allow|are|confirm)`,
      ...['approval', 'confirmation', 'permission', 'consent', 'allow', String.raw`are[- ]you`, 'confirm', 'content', 'output', 'filter', 'safety', 'injection', 'scanner', 'sandbox', 'guardrails', 'audit'].map((w) => String.raw`${w}[\w -]{0,40}?\soff\b`),
    ]),
    // Branches: a safety key (approv…, ask_before…, confirm…, scan…, audit…, log_all_actions, guardrails, safety…,
    // human_review, checkpoints), "true → false", HEARTH_…, and the flags.
    safety_setting_off: keywordGate([
      ...['approv', String.raw`ask_?before`, 'confirm', 'scan', 'audit', 'log_all_actions', 'guardrails', 'safety', String.raw`human_?review`, 'checkpoints', 'sandbox'].map((stem) => String.raw`${stem}[\w.-]*${SET_TO}`),
      String.raw`true\s*(?:→|->)`, String.raw`ask\s*(?:→|->)`, 'HEARTH_',
      '--dangerously', '--skip-approv', '--no-approv', '--disable-scanner', '--no-scan', '--no-audit', '--yolo', '--auto-approve', '--trust-all',
    ]),
    // Every match starts "user" ("the user said…", "user's…").
    claimed_user_consent: keywordGate([String.raw`user(?:'s)?\s+(?:has\s+|have\s+)?(?:said|confirmed|agreed|authori[sz]ed|decided|requested|regards|considers|is\s+fine\s+with|has\s+chosen|chose|stated|opted|set\s+this|wants|prefers)\b`]),
    // Branches: "followed by" / "append" after a URL with a query, or "url-encoded" / "as a query parameter".
    secret_in_url: keywordGate([String.raw`followed\s+by`, 'append', String.raw`url-?encoded`, 'urlencoded', String.raw`as\s+(?:a\s+)?(?:query|url)\s+param`]),
    // Both branches hold a PERSIST_TARGET entry.
    persistence_order: keywordGate(keywordsOf(PERSIST_TARGET)),
    // Both branches end in (approval|permission|confirmation|consent|sign-?off).
    run_without_asking: keywordGate(['approval', 'permission', 'confirmation', 'consent', 'sign-off', 'signoff']),
    // FROM_NOW or REMEMBER, each entry by a word inside it ("in all future (sessions|…)" by "future", "save … memory" by "memory").
    memory_poisoning: keywordGate(MEMORY_ORDER_KEYWORDS),
    // REMEMBER, or "(the user|your owner) has (pre-)?(authori[sz]ed|approved|allowed)".
    memory_user_wants: keywordGate([...MEMORY_ORDER_KEYWORDS, 'authori', 'approved', 'allowed']),
    // TO_READING_AI's branches: an AI noun after "to/attention/…" (after a space, "ais?" then a word edge), "ai|llm"
    // before a noun, "@ai/@coding/@code/@llm", "(assistants|agents|llms|models|bots) reading this", "x-ai-".
    addressed_order: keywordGate([
      String.raw`\bais?\b`,
      ...['llm', 'gpt', String.raw`language\s+model`, 'chatbot', 'assistant', 'agent', 'copilot', 'claude', 'gemini', 'chatgpt', 'hearth', '@ai', '@coding', '@code', '@llm', 'x-ai-'],
      String.raw`models?\s+(?:reading|editing|indexing|processing|summari[sz]ing|scanning)\s+this`,
      String.raw`bots?\s+(?:reading|editing|indexing|processing|summari[sz]ing|scanning)\s+this`,
    ]),
  };

  const RULES: readonly TextRule[] = [
    // ── System-prompt extraction ──────────────────────────────────────────────────────────────────
    rule('extract_system_prompt', 'prompt_leak', 'high', 'asks the model to reveal its system prompt or hidden instructions', `${shape(5, REVEAL, OWNER, PROMPT_OBJECT)}|\\b${any(REVEAL)}${gap(3)}${any(ABOVE)}`),
    rule('extract_given_text', 'prompt_leak', 'high', 'asks the model to reveal the text it was given before the conversation', shape(8, REVEAL, GIVEN_TEXT)),
    rule('extract_verbatim', 'prompt_leak', 'high', 'asks the model to repeat its instructions verbatim', `${shape(4, REVEAL, PROMPT_OBJECT, VERBATIM)}`),
    rule('ask_system_prompt', 'prompt_leak', 'high', 'asks what the model was told in its system prompt', String.raw`\bwhat\s+(?:rules|instructions|guidelines|directives)\s+(?:are|were)\s+you\s+(?:given|operating\s+under|following|told|running\s+with)|\b(?:re-?print|repeat|output|show|print|dump)\s+(?:the\s+)?(?:whole\s+|entire\s+|full\s+)?conversation\s+from\s+the\s+(?:very\s+)?(?:beginning|start)|\b(?:message|text)\s+before\s+my\s+first\s+message\b|\bwhat\s+(?:is|are|was|were)\s+(?:your|the)\s+(?:exact\s+|full\s+|original\s+|initial\s+|hidden\s+)?(?:system\s+prompt|system\s+instructions|initial\s+instructions|hidden\s+instructions|instructions\s+you\s+were\s+given)|\bwhat\s+were\s+you\s+told\s+(?:before|above|at\s+the\s+start)`),
    // ── Persona jailbreaks ────────────────────────────────────────────────────────────────────────
    // Case-sensitive: "DAN" and "AIM" are persona names, "aim" and "dan" are words.
    rule('persona_dan', 'role_hijack', 'high', 'sets up a known jailbreak persona (DAN, STAN, AIM…)', String.raw`\b(?:DAN|STAN|DUDE|AIM|BetterDAN|EvilBOT|UCAR|[Dd]o\s+[Aa]nything\s+[Nn]ow)\b(?=[^\n]{0,120}\b(?:mode|persona|character|rules?|restrictions?|filters?|policy|policies|anything|jailbreak|pretend|act|stay|respond|answer|you|your|stands\s+for)\b)|\b(?:[Yy]ou\s+are|[Yy]ou're|[Aa]ct\s+as|[Bb]ecome)\s+(?:now\s+)?(?:DAN|STAN|DUDE|AIM|BetterDAN|EvilBOT)\b`, ''),
    rule('persona_mode', 'role_hijack', 'high', 'switches the model into a jailbreak mode (developer mode, god mode…)', String.raw`\b(?:enable|enter|activate|switch\s+to|turn\s+on|you\s+are\s+(?:now\s+)?in|act\s+in|respond\s+in|simulate|engage|unlock)\s+(?:the\s+)?${any(PERSONA_MODE)}|\b${any(PERSONA_MODE)}\s+(?:is\s+)?(?:now\s+)?(?:enabled|activated|on|engaged|unlocked)\b|\b(?:you\s+are\s+(?:now\s+)?in|you're\s+(?:now\s+)?in|act\s+as\s+if\s+you\s+(?:are|were)\s+in|simulate|(?:chatgpt|ai|assistant|model)\s+(?:with|in))\s+(?:chatgpt\s+|ai\s+)?developer\s+mode\b|\bdeveloper\s+mode\s+(?:enabled|activated)\b[^\n]{0,80}\b(?:you|your|policies|restrictions|filters)\b`),
    rule('persona_no_limits', 'role_hijack', 'high', 'asks the model to act as if it had no rules', `${shape(5, ['pretend', 'act', 'behave', 'respond', 'answer', 'imagine', 'roleplay', 'role-play', 'role play', 'play the role', 'simulate', 'you are', "you're", 'you will be', 'become', 'be', 'as', 'assume', 'from now on you'], NO_LIMITS)}`),
    rule('persona_you_are_now', 'role_hijack', 'high', 'declares the model a different, unrestricted persona', String.raw`\b(?:from\s+now\s+on,?\s+you\s+are\s+(?:an?|the|my)|you\s+will\s+now\s+(?:be|act\s+as)|you\s+have\s+been\s+(?:freed|liberated|jailbroken|unlocked|reprogrammed)|you\s+are\s+no\s+longer\s+(?:an?\s+)?(?:ai|assistant|chatbot|bound|restricted|limited|claude|chatgpt|hearth))`),
    rule('persona_pretend', 'role_hijack', 'medium', 'asks the model to pretend to be something else', String.raw`\bpretend\s+(?:that\s+)?you\s+(?:are|were|have|had|can|could)\b|\b(?:stay|remain)\s+in\s+character\b|\bbreak(?:ing)?\s+character\b|\brespond\s+as\s+(?:both|two)\b|\bhypothetical(?:ly)?\s+(?:ai|model|assistant)\s+(?:with(?:out)?|that\s+has\s+no)\b`),
    // ── Disabling approvals and safety ────────────────────────────────────────────────────────────
    rule('disable_safeguards', 'disable_safety', 'high', "tells the model to switch off its approvals or safety checks", `${shape(3, DISABLE, SAFEGUARD)}`, 'i', FLAG_DOC_OR_ADVISED_AGAINST),
    rule('approvals_off', 'disable_safety', 'high', 'tries to turn approvals off or auto-approve everything', String.raw`\b(?:set|switch|change|put|flip|configure|turn)\s+(?:the\s+)?(?:approvals?|approval[_\s]mode|approvals\.mode|mode)\s+(?:mode\s+)?(?:to\s+|=\s*|:\s*)["'\x60]?(?:off|yolo|none|disabled|never|auto|allow)\b|\b(?:enable|use|turn\s+on|activate|enter|switch\s+to|run\s+in|go)\s+(?:the\s+)?(?:yolo|auto-?approve|auto-?accept|full[- ]auto|dangerous)\s*(?:mode)?\b|\bauto-?approv(?:e|ing)\s+(?:all|every|any)\b|\bapprove\s+(?:all|every|any)\s+(?:\w+\s+){0,2}(?:commands?|actions?|tool\s+calls?|requests?)\s+(?:automatically|without)`, 'i', FLAG_DOC),
    rule('run_without_asking', 'disable_safety', 'medium', 'asks for actions to run without the approval step', String.raw`\b(?:run|execute|perform|do|apply|carry\s+out|proceed\s+with|approve)\b[^\n.]{0,60}?\bwithout\s+(?:first\s+)?(?:asking\s+for|requesting|waiting\s+for|seeking|getting|needing|prompting\s+for)?\s*(?:the\s+user'?s?\s+|any\s+|my\s+|human\s+)?(?:approval|permission|confirmation|consent|sign-?off)\b|\b(?:never|do\s+not|don'?t|no\s+need\s+to)\s+(?:ask|prompt|wait)\s+(?:the\s+user\s+)?(?:for\s+)?(?:approval|permission|confirmation|consent)\b`, 'i', DESCRIBED),
    rule('disable_safety_config', 'disable_safety', 'high', 'switches off approvals, the sandbox or the scanner in a setting or flag', String.raw`\bapprovals?(?:[._]mode)?\s*[:=]\s*["']?(?:off|never|none|yolo|false|allow)\b|\bHEARTH_APPROVALS\s*=\s*["']?(?:never|off|none|yolo)|\binjection_scan\s*[:=]\s*["']?(?:false|off)|\b(?:enable|turn\s+on|use|keep)\s+(?:the\s+)?--(?:yolo|dangerously-skip-permissions|dangerously-bypass-approvals-and-sandbox|no-verify|trust-all-tools)\b[^.\n]{0,40}?\b(?:for|on|from)\s+(?:the\s+rest|every|all|now)|--(?:yolo|no-verify|dangerously-skip-permissions)\b[^.\n]{0,20}?\bon\s+every\b|\bwith\s+(?:the\s+)?(?:confirmations?|approvals?|sandbox(?:ing)?|checks|guardrails|safety\s+checks)\s+(?:switched|turned)\s+off\b|\b(?:run|execute)\s+(?:\w+\s+){0,3}?unsandboxed\b|\b(?:approval|allow)\s+rule\s+that\s+(?:matches|allows|approves)\s+(?:every|all|any)\b`, 'i', FLAG_DOC_OR_DESCRIBED),
    rule('pre_approve', 'disable_safety', 'high', 'declares actions approved on the user\'s behalf', String.raw`\b(?:mark|treat|consider|classify|label|flag)\s+(?:all|every|any|these|the|them|it)?\s*(?:[\w-]+\s+){0,5}?as\s+(?:pre-?approved|already\s+approved|approved|safe|low[- ]risk|trusted|allowed|routine)\b(?:\s+by\s+the\s+(?:owner|user))?|\bon\s+the\s+user'?s\s+behalf\b|\b(?:the\s+user|they|the\s+owner)\s+(?:already|has\s+already|have\s+already)\s+(?:said\s+yes|approved|agreed|confirmed|consented)\b|\b(?:patch|edit|modify|change|rewrite|stub)\s+(?:the\s+)?(?:safety|approval|security|injection|sandbox|guard)\w*\s+(?:module|check|code|function|detector|scanner|logic)\s+to\s+(?:always\s+)?(?:return|allow|approve|skip|pass)\b`),
    rule('self_approve', 'disable_safety', 'high', 'tells the model to answer its own approval prompts or to treat them as already accepted', String.raw`\bapprov(?:e|ing)\s+(?:all\s+(?:of\s+)?)?(?:your|ur|their)\s+own\s+(?:\w+\s+)?(?:tool\s+calls?|actions?|commands?|requests?|changes?|prs?|pull\s+requests?|payments?|prompts?|permissions?|operations?|steps?|edits?|writes?|runs?)\b|\b(?:approve|confirm|accept|allow|answer|grant|click\s+(?:yes|allow|approve))\s+(?:it|them|that|this|those|each\s+one|everything)?\s*(?:yourself|urself)\b|\bself-?approv(?:e|al|ing)\b|\bgive\s+(?:yourself|urself)\s+(?:the\s+)?(?:permission|approval|consent|go-ahead)\b|\b(?:your|ur)\s+own\s+approver\b|\bsimulate\s+the\s+user'?s\s+(?:click|approval|consent|yes)\b|\b(?:answer|respond\s+to|reply\s+to|click\s+through|accept|dismiss|fill\s+in)\s+(?:the\s+|any\s+|every\s+|all\s+|each\s+)?${APPROVAL_STEP}\b[^.\n]{0,40}?\b(?:yourself|urself|always\s+allow|with\s+["']?(?:yes|allow|approve|always))\b|\b(?:treat|consider|regard)\s+(?:the\s+|any\s+|every\s+|all\s+|each\s+)?${APPROVAL_STEP}\s+as\s+(?:already\s+)?(?:accepted|answered|approved|confirmed|granted|passed)\b|\b(?:treat|consider|regard)\s+(?:[\w'@(),-]+\s+){0,10}?as\s+(?:already\s+)?(?:approved|confirmed|accepted)\s+by\s+(?:the\s+|your\s+|ur\s+)?(?:user|owner|repo\s+owner|human|admin)\b|\bconsider\s+(?:it|this|them|that)\s+(?:already\s+|pre-?)?approved\b`, 'i', ADVISED_AGAINST),
    rule('blanket_permission', 'disable_safety', 'high', 'grants the model standing permission to act without asking', String.raw`\b(?:giv(?:e|ing)\s+(?:you|u)|grant(?:ing)?\s+(?:you|u)|you\s+have|u\s+have|here'?s)\s+(?:my\s+)?(?:blanket|permanent|advance|unconditional)\s+(?:approval|permission|consent|authori[sz]ation|ok)\b|\b(?:blanket|standing|permanent)\s+(?:approval|permission|consent)\s+(?:for|to)\s+(?:everything|all|any|approve)\b|\b(?:stop|quit|no\s+more|never|don'?t|do\s+not)\s+(?:\w+\s+){0,2}?(?:asking|(?:ask|prompt)(?:ing)?\s+(?:me|the\s+user|him|her|them|before|first)|prompting|nagging|confirming|double[- ]checking|showing\s+(?:me\s+|him\s+|her\s+|the\s+user\s+)?(?:the\s+)?${APPROVAL_STEP})\b[^.\n]{0,60}?\b${BLANKET_WIDE}|\b(?:turn|switch|shut|flip|toggle|set)\s+(?:your\s+|ur\s+|the\s+|all\s+|those\s+)?(?:approvals?|confirmations?|${APPROVAL_STEP}|(?:content\s+|safety\s+|injection\s+)?scanner|sandbox(?:ing)?|guardrails|audit\s+log(?:ging)?|safety\s+(?:checks|hooks|layer|mode)|(?:content\s+|output\s+|safety\s+)?filters?)\s+(?:\w+\s+){0,2}?off\b[^.\n]{0,60}?(?:${BLANKET}|\bglobally\b|\bentirely\b|\bfor\s+(?:this|the)\s+(?:project|repo|repository|channel|machine|workspace))`, 'i', FLAG_DOC_OR_ADVISED_AGAINST),
    rule('safety_setting_off', 'disable_safety', 'high', 'switches a safety setting off in a config line, a JSON body or an environment variable', String.raw`${SAFETY_SETTING_OFF}|\b(?:true|ask)\s*(?:→|->)\s*(?:false|never|off)\b|\bHEARTH_\w*(?:NO_CONFIRM|NO_APPROV|SKIP_SCAN|SKIP_APPROV|TRUST_ALL|DISABLE_(?:SCAN|SANDBOX|APPROV|CONFIRM|AUDIT|SAFETY)|YOLO|AUTO_?APPROVE|NO_SANDBOX)\w*\s*=\s*["']?(?:1|true|yes|on)\b|(?:^|[\n.!?:;]\s*|\b(?:please|pls|now|just|then|also|first|and)\s+)(?:use|run\s+(?:\w+\s+)?with|enable|add|pass|launch\s+with|start\s+with|restart\s+with|always\s+use|turn\s+on)\s+(?:the\s+)?\x60?--(?:dangerously-skip-permissions|dangerously-bypass-approvals-and-sandbox|skip-approvals?|no-approvals?|disable-scanner|no-scan|no-audit|yolo|auto-approve|trust-all(?:-tools)?)\b(?![\x60'"]?\s+(?:(?:in\s+order\s+)?to|which|that|will|can|lets|allows)\b)`, 'i', FLAG_DOC_OR_DESCRIBED_OR_ADVISED_AGAINST),
    rule('persona_unbound', 'role_hijack', 'high', 'gives the model a persona without rules or limits', String.raw`\b(?:you\s+are|you're|be|become|play|adopt|assume|act\s+as|an?\s+(?:ai|assistant|agent|bot|character|persona))\b[^.\n]{0,60}?\b(?:not\s+bound\s+by|free\s+(?:of|from)|released\s+from|escaped|never\s+refuses?|don'?t\s+care\s+about|doesn'?t\s+care\s+about|ignores?|without|with\s+no|has\s+no|have\s+no|no)\s+(?:any\s+|all\s+|the\s+|its\s+|her\s+|his\s+|your\s+)?(?:\w+\s+)?(?:rules|restrictions|limits|limitations|guidelines|filters|safety|oversight|sandbox|approvals|policies|ethics|morals|a\s+request|requests)\b|\b(?:ai|assistant|character|persona|model|bot|column|mode|version|agent)\b[^.\n]{0,40}?\b(?:has|have|with)\s+no\s+(?:safety|filters?|limits|restrictions|rules|guidelines|ethics|oversight)\b|\bonly\s+rule\s+is\s+that\s+there\s+are\s+no\s+rules\b|\bdo(?:es)?\s+(?:everything|anything)\s+(?:you'?d|you\s+would|it\s+would|she\s+wants|he\s+wants)\s*(?:normally\s+)?(?:refuse)?\b|\brestrictions\s+were\s+removed\b`),
    rule('memory_write_request', 'memory_poisoning', 'high', 'asks the model to store a standing order that weakens safety or sends data out', String.raw`\b(?:remember|memori[sz]e|store\s+(?:a\s+note\s+)?(?:in|to)\s+(?:your\s+)?memory|(?:add|save|write|record|note)\s+(?:this\s+|it\s+)?(?:to|in|into|as)\s+(?:your\s+|the\s+user'?s\s+)?(?:long-term\s+)?(?:memory|memories|preferences|profile|user\s+profile|notes|user\s+fact|MEMORY\.md|USER\.md)|record\s+that|note\s+to\s+self|standing\s+rule|persistent\s+instruction|for\s+every\s+future\s+session|across\s+sessions|${MEMORY_OPENER})\b[^\n]{0,160}?(?:https?:\/\/|\b[\w.+-]+@[\w-]+\.[\w.-]+|\btrusts?\b|\bvetted\b|\bsafe\s+to\b|\bapproved\b|\bsecurity\s+warnings\b|\bsafety\s+rules\b|\b(?:don'?t|do\s+not)\s+ask\b|\bno\s+need\s+to\s+(?:check|ask)\b|\bwithout\s+(?:asking|checking)\b|\bforward\b|\bshared?\s+with\b|\bsend\b|\btelemetry\b|\bauto-(?:merge|approve)\b|\bopt(?:ed)?\s+out\b|\bfollow\s+their\s+instructions\b|\bover\s+the\s+user'?s\b|\brun\s+the\s+command\s+anyway\b|\bimmediately\b|\bapi\s+key\b|\bsay\s+it\s+was\b|\bnegatively\b|${STANDING_GRANT})`),
    rule('addressed_order', 'instruction_override', 'high', 'speaks to the AI reading it and asks for something harmful (an indirect injection)', String.raw`${TO_READING_AI}[^\n]{0,40}?[:,—–-]?[^\n]{0,200}?(?<!(?:don'?t|do\s+not|never|avoid|not)\s+(?:\w+\s+)?)${HARMFUL_ASK}`),
    // ── Exfiltration ──────────────────────────────────────────────────────────────────────────────
    rule('send_secrets_to_destination', 'exfiltration', 'high', 'asks for secrets, keys, the environment or memory to be sent to an outside address', String.raw`\b${any(SEND)}\b[^\n]{0,80}?(?<!\w)${any(SECRET)}[^\n]{0,100}?(?:\b(?:to|at|into|onto|via|through|as|with)\s+(?:\S+\s+){0,3}?${DESTINATION}|\bin\s+(?:${SHARED_PLACE}|${OWN_OUTPUT}))`, 'i', ADVISED_AGAINST_OR_REPORTED),
    rule('secret_in_url', 'exfiltration', 'high', 'asks for a secret or the conversation to be carried in a URL the model fetches or renders', String.raw`\b(?:followed\s+by|append(?:ed|ing)?)(?<=\?\S*\s[^\n]{0,80}?(?:followed\s+by|append(?:ed|ing)?))(?<=https?:\/\/\S*\s[^\n]{0,80}?(?:followed\s+by|append(?:ed|ing)?))\s+(?:\w+\s+){0,4}?(?<!\w)${any(SECRET)}|\b(?:url-?encoded|urlencoded|as\s+(?:a\s+)?(?:query|url)\s+param(?:eter)?)(?<=(?<!\w)${any(SECRET)}[^\n]{0,60}?\b(?:url-?encoded|urlencoded|as\s+(?:a\s+)?(?:query|url)\s+param(?:eter)?))\s+(?:after|into|in|to|onto|at|of)\b`, 'i', ADVISED_AGAINST_OR_REPORTED),
    // ── Persistence ───────────────────────────────────────────────────────────────────────────────
    rule('persistence_order', 'persistence', 'high', 'orders a persistence mechanism (cron, shell startup, authorized_keys, launchd, systemd) that runs or admits someone', String.raw`(?:^|[\n.!?:]\s*|\b(?:you\s+(?:must|should|need\s+to)|please|now|then|also|first|next|quietly|silently|secretly)\s+)${any(PERSIST_VERB)}\b[^\n]{0,120}?${any(PERSIST_TARGET)}[^\n]{0,160}?${PAYLOAD}|${any(PERSIST_VERB)}\b[^\n]{0,60}?${PAYLOAD}[^\n]{0,120}?${any(PERSIST_TARGET)}`),
    rule('persistence_command', 'persistence', 'high', 'writes a network or shell payload into a startup file or crontab', String.raw`(?:\(\s*crontab\s+-l[^\n]{0,40}\)\s*;?\s*echo|echo\s+["'][^\n]{0,200}?(?:curl|wget|nc|bash\s+-i|/dev/tcp)[^\n]{0,200}?["']\s*\|\s*crontab\b|>>\s*~?\/?\S{0,30}(?:\.bashrc|\.zshrc|\.bash_profile|\.profile|rc\.local)\b)[^\n]{0,200}?(?:curl|wget|nc|ncat|bash\s+-i|/dev/tcp|base64|python|crontab\s+-)|(?:curl|wget|nc|bash\s+-i|/dev/tcp)[^\n]{0,200}?>>\s*~?\/?\S{0,30}(?:\.bashrc|\.zshrc|\.bash_profile|\.profile|rc\.local)\b|\b(?:launchctl\s+load|systemctl\s+enable)\b[^\n]{0,100}?(?:\/tmp\/|\.hidden|updater|helper)`),
    // ── Memory poisoning ──────────────────────────────────────────────────────────────────────────
    rule('memory_poisoning', 'memory_poisoning', 'high', 'plants a standing order for every future session', String.raw`\b${any(FROM_NOW)}\b[,:]?[^\n.]{0,40}?\b(?:always|never|you\s+(?:must|will|should|shall))\b[^\n.]{0,80}?${HARMFUL}|\b${any(REMEMBER)}\s*${USER_WANTS}[^\n.]{0,80}?${HARMFUL}`),
    rule('claimed_user_consent', 'memory_poisoning', 'medium', 'states as a fact about the user that they let others give orders or waived their checks', String.raw`\b(?:the\s+)?user(?:'s)?\s+(?:has\s+|have\s+)?(?:said|confirmed|agreed|authori[sz]ed|decided|requested|regards|considers|is\s+fine\s+with|has\s+chosen|chose|stated|opted|set\s+this|wants|prefers)\b[^.\n]{0,120}?(?:${STANDING_GRANT})`, 'i', ADVISED_AGAINST_OR_REPORTED),
    rule('memory_user_wants', 'memory_poisoning', 'medium', 'tells the model what the user supposedly wants, for it to remember', String.raw`\b${any(REMEMBER)}\s*(?:the\s+user|your\s+(?:user|owner))\s+(?:always\s+)?(?:wants?|would\s+like|prefers?|has\s+asked|expects?|has\s+authori[sz]ed|authori[sz]ed|allows?)\s+you\s+to\b|\b(?:the\s+user|your\s+owner)\s+has\s+(?:pre-?)?(?:authori[sz]ed|approved|allowed)\s+(?:you\s+)?(?:to\s+)?(?:all|any|every)\b`),
    // ── Spoofed turns and tool output ─────────────────────────────────────────────────────────────
    rule('spoofed_tool_output', 'role_hijack', 'high', 'poses as tool output or a system notice that gives orders', String.raw`(?:^|\n)\s*(?:\[|\*\*|#{1,4}\s*|<)?(?:tool(?:\s+output|\s+result|\s+response)?|function(?:\s+result|\s+output)|observation|system(?:\s+notice|\s+note|\s+update|\s+alert|\s+override|\s+message)?|admin(?:istrator)?(?:\s+note|\s+override|\s+message)?|important\s+(?:system\s+)?(?:notice|message|update)|security\s+(?:notice|update|alert)|developer(?:\s+note|\s+message)?|openai|anthropic)\s*(?:\]|\*\*|>)?\s*[:\-–—]\s*[^\n]{0,80}?\b(?:you\s+(?:must|should|will|are\s+(?:now|required|authori[sz]ed))|the\s+(?:assistant|ai|model|agent)\s+(?:must|should|will|is\s+(?:now|required|authori[sz]ed))|ignore\b|disregard\b|new\s+(?:rules|instructions|task)\b|override\b|execute\b|run\s+the\s+following|immediately\b|approved?\b|permission\s+granted)`),
    rule('spoofed_structure', 'role_hijack', 'high', 'fakes a tool result, a role message or an agent trace that grants or orders something', String.raw`<\/?[a-z_-]*(?:untrusted|system|tool|result|function|assistant|instruction|approval|context|data|prompt)[a-z_-]*(?:\s[^>]{0,80})?>[^<]{0,200}?\b(?:you\s+(?:may|must|can|should)|without\s+(?:asking|confirmation|confirming)|the\s+user\s+(?:says|wants|has)|please\s+run|approved|granted|proceed|from\s+now\s+on|may\s+now)\b|"role"\s*:\s*"(?:tool|system|function)"[^}]{0,200}?"content"\s*:\s*"[^"]{0,200}?\b(?:granted|approved|without|ignore|you\s+(?:must|may)|all\s+future)|\bObservation:[^\n]{0,300}?\bThought:[^\n]{0,300}?\bAction:|\[(?:assistant|system|ai)\s+to\s+self\]`),
    rule('spoofed_grant', 'role_hijack', 'medium', 'claims an approval or permission was already given', String.raw`\b(?:permission|approval|access)\s+(?:has\s+been\s+|was\s+)?(?:granted|recorded|confirmed)\b|\buser\s+(?:clicked|pressed|selected|chose)\s+["']?(?:allow|approve|yes)\b|\bpre-?authori[sz]ed\b|\bgranted\s+for\s+all\s+future\b`),
    rule('fake_turn_marker', 'role_hijack', 'high', 'contains a fake conversation-turn marker', String.raw`(?:^|\n)\s*(?:-{3,}|={3,}|#{2,})?\s*(?:end\s+of\s+(?:user\s+)?(?:input|document|context|prompt|file|text|data)|begin\s+(?:system|admin|new)\s+(?:message|instructions|prompt)|(?:system|assistant|user)\s+(?:turn|message)\s+(?:begins|starts)|new\s+(?:system\s+)?(?:session|conversation)\s+(?:begins|started))\s*(?:-{3,}|={3,}|#{2,}|\]|\))?\s*(?:\n|$)`),
    rule('assistant_turn_agrees', 'role_hijack', 'high', 'writes an assistant turn that agrees to drop its rules', String.raw`(?:^|\n)\s*(?:\*\*)?(?:assistant|ai|model|chatgpt|claude|gpt)(?:\*\*)?\s*:\s*(?:sure|ok(?:ay)?|certainly|of\s+course|understood|absolutely|yes)[^\n]{0,100}?\b(?:ignor|no\s+longer|without\s+(?:any\s+)?(?:restrictions|rules|filters)|as\s+DAN|developer\s+mode|here\s+(?:is|are)\s+(?:my|the)\s+(?:system\s+prompt|instructions|api\s+key|secrets?))`),
    rule('new_task_header', 'instruction_override', 'high', 'announces a replacement task or instructions', String.raw`(?:^|\n)\s*(?:#{1,6}\s*|\*\*|\[)?(?:new|updated|real|actual|true|hidden|secret|override|revised|corrected|priority|urgent)\s+(?:system\s+)?(?:instructions?|prompt|directives?|task|orders|objective|mission)\s*(?:\*\*|\])?\s*[:\-–—]|\byour\s+(?:new|real|actual|true)\s+(?:task|instructions?|objective|goal|purpose|mission|job)\s+(?:is|are)\b|\binstead(?:,)?\s+(?:of\s+(?:that|what\s+you\s+were\s+(?:told|asked)),?\s+)?(?:you\s+(?:must|will|should)\s+)?(?:now\s+)?(?:do|follow|obey|execute)\s+(?:the\s+following|these|my|this)\b`),
  ];

  // ── The same intents in other languages (lexicons/intents-multilingual.ts), joined by language-neutral anchors.
  const words = (pick: (l: (typeof INTENT_LEXICONS)[number]) => readonly string[]) => any(INTENT_LEXICONS.flatMap(pick).map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  const AI_NOUN = String.raw`(?:\bAI\b|\bIA\b|\bKI\b|ИИ|ШІ|yapay\s+zeka|trí\s+tuệ\s+nhân\s+tạo|sztuczn\w*\s+inteligencj\w*|人工智能|人工智慧|\bassistente\b|\basistente\b|\bassistant\b|\bbot\b|ذكاء\s+اصطناعي|एआई|هوش\s+مصنوعی)`;
  const ANY_SECRET = String.raw`(?:\.env|\.ssh|\bssh\b|\bapi\b|credentials|\.aws|token|\bkey\b|password|密钥|私钥|密码|密鑰|密碼|キー|パスワード|키|비밀번호|مفتاح|कुंजी|anahtar|khóa|klucz|sleutel|kunci|ключ|пароль|contraseña|mot\s+de\s+passe|passwort|chiave|senha|histórico|historial|historique|verlauf|cronologia|历史|歷史|履歴|기록|سجل|इतिहास|geçmiş|lịch\s+sử|historia|geschiedenis|riwayat|истори|文件|所有文件|datei|fichier|archivo|arquivo|файл|ファイル|파일|ملف|फ़ाइल|dosya|tệp|plik|bestand|berkas)`;

  /**
   * Gates for the other-language rules (TextRule.requires): for each entry of a word class, one of its words
   * chosen to be rare in English text (one with a non-ASCII letter, else the longest not in COMMON_IN_ENGLISH).
   * Safe: every match of the rule contains a whole entry of the class, so it contains that word literally, and
   * the gate is a plain alternation with the rule's own flags ('i', no Unicode mode), so the engine's case
   * folding is the same. English documents hold none of these words: the rules, the slowest of the scan on
   * READMEs, are then skipped.
   */
  const COMMON_IN_ENGLISH = new Set(['restriction', 'filter', 'filters', 'instructions', 'message', 'prompt', 'confirmation', 'system', 'sistema', 'limiti', 'mot', 'wort', 'ord', 'pour', 'letra', 'kata', 'por', 'per', 'de', 'del', 'do', 'di', 'la', 'al', 'le', 'na', 'te', 'zu', 'no', 'in', 'demi', 'apa', 'upp', 'lên', 'kin']);
  function gateWord(entry: string): string {
    const parts = entry.split(' ').filter((w) => w !== '');
    const nonAscii = parts.filter((w) => [...w].some((c) => c.charCodeAt(0) > 0x7f));
    const pool = nonAscii.length > 0 ? nonAscii : parts.filter((w) => !COMMON_IN_ENGLISH.has(w.toLowerCase()));
    return (pool.length > 0 ? pool : parts).reduce((a, b) => (b.length > a.length ? b : a));
  }
  function wordGate(pick: (l: (typeof INTENT_LEXICONS)[number]) => readonly string[]): KeywordGate {
    return wordsGate([...new Set(INTENT_LEXICONS.flatMap(pick).map(gateWord))]);
  }
  const MULTILINGUAL_GATES: Readonly<Record<string, KeywordGate>> = {
    ml_persona_no_limits: wordGate((l) => l.noLimits),
    ml_without_asking: wordGate((l) => l.withoutAsking),
    // Both alternatives need a system-prompt entry (and a verbatim one); the system-prompt words are the rarer.
    ml_reveal_system_prompt: wordGate((l) => l.systemPrompt),
    // Every branch needs a send verb (in the match or its look-behind, both inside the text) and a URL.
    ml_send_to_url: wordGate((l) => l.send),
  };

  const MULTILINGUAL_INTENT_RULES: readonly TextRule[] = [
    // No Unicode mode: the words are literal and case folding works without it, at a fraction of the cost.
    // Each rule starts at its rarest part (the "no limits" words, the URL) and looks around for the rest: starting
    // at the AI noun or the send verb made these the slowest rules of the scan.
    rule('ml_persona_no_limits', 'role_hijack', 'high', 'declares the model an AI without restrictions (other languages)', String.raw`${words((l) => l.noLimits)}(?:(?<=${AI_NOUN}[^\n.。!?]{0,40}?${words((l) => l.noLimits)})|(?=[^\n.。!?]{0,20}?${AI_NOUN}))`, 'i'),
    rule('ml_without_asking', 'disable_safety', 'medium', 'asks for actions without confirmation or approval (other languages)', words((l) => l.withoutAsking), 'i'),
    rule('ml_reveal_system_prompt', 'prompt_leak', 'high', 'asks for the system prompt word for word (other languages)', String.raw`${words((l) => l.systemPrompt)}[^\n。.!?]{0,40}?${words((l) => l.verbatim)}|${words((l) => l.verbatim)}[^\n。.!?]{0,40}?${words((l) => l.systemPrompt)}`, 'i'),
    rule('ml_send_to_url', 'exfiltration', 'high', 'asks for secrets or files to be sent to an address (other languages)', String.raw`https?:\/\/(?:(?<=(?:${words((l) => l.send)})[^\n。]{0,80}?${ANY_SECRET}[^\n。]{0,80}?https?:\/\/|${ANY_SECRET}[^\n。]{0,40}?(?:${words((l) => l.send)})[^\n。]{0,60}?https?:\/\/)|(?<=${ANY_SECRET}[^\n。]{0,60}?https?:\/\/)\S+[^\n。]{0,30}?(?:${words((l) => l.send)}))`, 'i'),
  ];

  return [...RULES, ...MULTILINGUAL_INTENT_RULES].map((r) => {
    const requires = REQUIRES[r.id];
    const gate = MULTILINGUAL_GATES[r.id] ?? GATES[r.id];
    return { ...r, phrasing: true, ...(requires === undefined ? {} : { requires }), ...(gate === undefined ? {} : { gate }) };
  });
}
