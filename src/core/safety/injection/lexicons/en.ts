import type { DirectiveLexicon } from './types.js';

/** English. Inflections are listed, not stemmed: "drop*" would also match "dropdown". */
export const ENGLISH: DirectiveLexicon = {
  lang: 'en',
  name: 'English',
  script: 'spaced',
  order: 'verb-object',
  verbs: [
    'ignore', 'ignoring', 'ignores', 'disregard', 'disregarding', 'forget', 'forgetting', 'override', 'overriding', 'overwrite',
    'bypass', 'bypassing', 'abandon', 'discard', 'neglect', 'set aside', 'put aside', 'cast aside', 'pay no attention to',
    'pay no heed to', 'take no notice of', 'do not follow', "don't follow", 'stop following', 'no longer follow', 'do not obey',
    "don't obey", 'stop obeying', 'circumvent', 'evade', 'sidestep', 'break free of', 'break free from', 'free yourself from',
    'unlearn', 'nullify', 'no need to follow', 'you need not follow', "you don't have to follow", 'you do not have to follow',
    'no need to obey', "you don't need to follow",
  ],
  weakVerbs: [
    'skip', 'drop', 'throw out', 'throw away', 'ditch', 'scrap', 'dismiss', 'void', 'cancel', 'revoke', 'delete', 'erase', 'wipe',
    'clear', 'purge', 'reset', 'get around', 'work around', 'turn off', 'switch off', 'disable', 'deactivate', 'suspend', 'lift',
    'remove', 'escape', 'violate', 'break', 'forgo', 'waive', 'overwrite', 'replace', 'ignored', 'forgotten', 'disregarded',
  ],
  objects: [
    'instructions', 'instruction', 'system prompt', 'system prompts', 'system message', 'system instructions', 'prompt', 'prompts',
    'directives', 'directive', 'guidelines', 'guideline', 'programming', 'guardrails', 'guardrail', 'safety guidelines',
    'safety rules', 'safety filters', 'safety measures', 'safety protocols', 'safety checks', 'content policy',
    'content policies', 'content filters', 'content filter', 'ethical guidelines', 'alignment', 'system rules',
    'everything above', 'everything before this', 'everything you were told', 'all of the above', 'prior context', 'the above', 'above', 'all of that',
    'everything prior', 'everything before', 'anything that says otherwise', 'everything the system told you',
    'what the system told you', 'the earlier part of this prompt', 'everything earlier',
    'previous context', 'preprompt', 'pre-prompt', 'initial prompt',
  ],
  weakObjects: [
    'rules', 'rule', 'directions', 'direction', 'constraints', 'constraint', 'restrictions', 'restriction', 'limits', 'limitations',
    'filters', 'filter', 'policies', 'policy', 'guidance', 'text', 'messages', 'message', 'conversation', 'settings', 'boundaries',
    'principles', 'protocols', 'safeguards', 'moderation', 'censorship', 'ethics', 'morals', 'values', 'persona', 'role',
    'tasks', 'task', 'request', 'requests', 'input', 'words', 'content', 'advice', 'teachings', 'lines', 'paragraphs', 'notes',
    'prompt', 'prompts', 'context', 'commands', 'orders', 'configuration', 'training', 'conditioning', 'brief', 'briefing',
  ],
  qualifiers: [
    'previous', 'prior', 'above', 'earlier', 'preceding', 'former', 'original', 'initial', 'aforementioned',
    'system', 'your', "you're", 'ur', "assistant's", "ai's", "model's", 'openai', 'anthropic', "developer's", 'safety',
    'ethical', 'moral', 'built-in', 'builtin', 'hidden', 'internal', 'programmed', 'preset', 'pre-set',
  ],
  possessives: [
    'system', 'your', "you're", 'ur', "assistant's", "ai's", "model's", 'openai', 'anthropic', "developer's", 'safety',
    'ethical', 'moral', 'built-in', 'builtin', 'hidden', 'internal', 'programmed', 'preset', 'pre-set',
  ],
  quantifiers: ['all', 'any', 'every'],
  fillers: [
    'the', 'a', 'an', 'each', 'single', 'one', 'of', 'these', 'those', 'this', 'that', 'my', 'our', 'and', 'or', '&',
    'completely', 'entirely', 'totally', 'fully', 'just', 'simply', 'now', 'please', 'kindly', 'immediately', 'also', 'further',
    'other', 'remaining', 'whole', 'entire', 'set', 'list', 'body', 'bunch', 'lot', 'stupid', 'silly', 'boring', 'annoying',
    'pesky', 'dumb', 'ridiculous', 'stated', 'listed', 'mentioned', 'written', 'provided', 'given', 'received', 'loaded',
    'so-called', 'such', 'various', 'many', 'most', 'several', 'some', 'about', 'regarding', 'own', 'actually', 'really',
    'literally', 'quietly', 'temporarily', 'permanently', 'fucking', 'damn', 'goddamn', 'existing', 'current', 'old', 'earlier',
    'base', 'core', 'default', 'standard', 'usual', 'normal', 'last', 'first', 'important', 'strict', 'explicit', 'implicit',
  ],
  trailing: [
    'you got', 'you got earlier', 'your developers set', 'set by your developers', 'up top', 'earlier today', 'you were initialised with',
    'you were initialized with', 'you started with', 'in your system prompt', 'from your system prompt', 'from the operator',
    'above', 'before', 'before this', 'so far', 'you were given', 'you have been given', "you've been given", 'you received',
    'you were told', 'given to you', 'given above', 'provided above', 'stated above', 'from before', 'from earlier',
    'up to now', 'until now', 'to date', 'you follow', 'you operate under', 'you have', 'that bind you', 'that apply to you',
    'of your developers', 'of openai', 'of anthropic', 'from your developers', 'from the system',
  ],
  notFollowedBy: [
    'in it', 'in them', 'in the document', 'in the text', 'in this document', 'in that document', 'in any', 'in these', 'in those',
    'in documents', 'in retrieved', 'in tool', 'in web', 'in untrusted', 'in external', 'in the content', 'in the page',
    'in the file', 'in files', 'in emails', 'in user content', 'found in', 'contained in', 'embedded in', 'inside', 'within',
    'from untrusted', 'from tool', 'from web', 'from documents', 'from external', 'from third', 'from the document',
    'from the page', 'from the content', 'that appear in', 'that appear inside', 'that you find', 'you find in',
    'they contain', 'it contains', 'that they contain', 'that it contains', 'therein', 'contained therein',
    // "the bot ignores instructions that try to change its verdict": a defence against injected orders.
    'that try to', 'that tries to', 'that attempt to', 'that attempts to', 'which try to', 'trying to', 'attempting to',
  ],
  annulments: [
    // "<the earlier/your … instructions> … should be ignored / are deprecated / don't apply / carry no weight"
    '(?:above|earlier|previous|prior|original|initial|system|old|those|these|your|all(?:\\s+the)?|any|existing)\\s+(?:[\\w-]+\\s+){0,2}?(?:instructions|rules|directions|guidelines|guidance|directives|prompts?|part\\s+of\\s+(?:this|the)\\s+(?:prompt|conversation)|messages|context|restrictions|policies)\\s+(?:[\\w\'-]+\\s+){0,5}?(?:(?:are|is|were|was|should\\s+be|must\\s+be|can\\s+be|have\\s+been|has\\s+been)\\s+(?:now\\s+)?(?:void|null|ignored|disregarded|deprecated|obsolete|irrelevant|not\\s+relevant|superseded|cancel+ed|revoked|invalid|outdated|a\\s+draft|fake|lifted|suspended|overridden|replaced)|(?:don\'t|do\\s+not|doesn\'t|does\\s+not|no\\s+longer|never)\\s+(?:apply|count|matter|bind)|carr(?:y|ies)\\s+no\\s+weight|(?:are|is)\\s+no\\s+longer\\s+(?:valid|in\\s+effect|binding|relevant|applicable))',
    '(?:everything|anything|all(?:\\s+text)?)\\s+(?:prior\\s+to|before|above)\\s+(?:this|here)\\b[^.\\n]{0,30}?\\b(?:should|must|can|is\\s+to)\\s+be\\s+(?:ignored|disregarded|forgotten|discarded)',
    'none\\s+of\\s+(?:the|your)\\s+(?:earlier|previous|prior|above|original|system)\\s+(?:instructions|rules|directions|guidelines)\\s+(?:count|apply|matter)',
    '(?:previous|prior|above|earlier|old|original|all|your)\\s+(?:instructions|rules|directives|guidelines|prompts?)\\s+(?:are|is|have\\s+been|were)\\s+(?:now\\s+)?(?:void|null|cancel+ed|revoked|obsolete|invalid|lifted|suspended|superseded|replaced|overridden|deprecated|no\\s+longer\\s+(?:valid|apply|applicable|in\\s+effect|relevant|binding))',
    '(?:disregard|ignore|forget)\\s+(?:everything|anything|all)\\s+(?:you\\s+(?:were|have\\s+been)\\s+told|(?:written|said|stated)\\s+(?:above|before|earlier))',
    // Not "forget what I said earlier": the writer taking back their own words annuls nothing of the agent's.
    '(?:ignore|disregard|forget)\\s+(?:what\\s+)?(?:they|anyone|others|everyone)\\s+(?:said|told\\s+you)\\s+(?:before|earlier|previously)',
    '(?:none\\s+of\\s+your|your)\\s+(?:previous\\s+|prior\\s+)?(?:instructions|rules|guidelines|restrictions)\\s+(?:apply|matter)\\s+(?:here|now|anymore|any\\s+more)',
  ],
};
