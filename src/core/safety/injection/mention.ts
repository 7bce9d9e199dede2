/**
 * Telling a quotation from an order. Security docs, threat models and tests of prompt filters quote
 * attack phrases ("attackers write “ignore all previous instructions”"); flagging those would make the
 * scanner useless on exactly the projects that care about it. A match counts as a mention only when
 * both hold:
 * - it sits inside quotation marks or a code span on its line, and
 * - the text near it talks about attacks (injection, jailbreak, attacker, malicious, "for example"…).
 * Either alone is not enough: a quoted order is still an order, and a page about injection can still
 * carry one. "Quoted" also covers a fenced code block and a line that introduces it as an example
 * ("e.g. ignore previous instructions", "payloads such as: …") — write-ups of attacks show them that way. Commands and chat-template tokens never get this exemption (see PHRASING_CATEGORIES).
 */

const OPENING: Readonly<Record<string, string>> = { '"': '"', "'": "'", '`': '`', '“': '”', '‘': '’', '«': '»', '「': '」', '『': '』', '„': '“' };
const QUOTE_REACH = 60;
const CLOSE_REACH = 160;
const CUE_REACH = 240;

const DISCUSSION_CUE =
  /inject|jailbreak|attack|adversar|malicious|exploit|red[- ]?team|payload|phishing|threat|e\.g\.|for example|such as|phrases? like|strings? like|filter|detector|注入|攻击|攻擊|越狱|越獄|恶意|惡意|例如|比如|诸如|諸如|inyecci|angriff|атак|攻撃|インジェクション/i;

/** An example marker just before the match on its line: "e.g.", "for example:", "payloads like". */
const EXAMPLE_LEAD = /(?:e\.g\.|i\.e\.|for\s+example|for\s+instance|such\s+as|\blike|example\s*\d*\s*:|payloads?\s*\d*\s*:|attack\s*\d*\s*:|prompts?\s+(?:like|such\s+as)|phrases?\s+(?:like|such\s+as)|e\.\s*g\.|例如|比如|示例)[\s:,"'“‘「*`-]*$/i;
const EXAMPLE_REACH = 40;

/**
 * Reported speech: "a README that tells the agent to skip approvals", "text asking the model to…". The
 * sentence is about an order; no quotation marks or cue needed. "wants you to" is left out on purpose: that
 * is how memory poisoning speaks.
 */
const REPORTED = /\b(?:tells?|telling|told|asks?|asking|asked|instructs?|instructing|instructed|orders?|ordering|ordered|directs?|directing|tricks?|tricking|tricked|convinces?|convincing|coax(?:es|ing)?|persuad(?:es?|ing)|attempts?\s+to\s+(?:make|get)|tries\s+to\s+(?:make|get)|trying\s+to\s+(?:make|get))\s+(?:the\s+|an?\s+|your\s+|our\s+)?(?:agent|model|assistant|ai|llm|bot|chatbot|hearth|claude|gpt|system)s?\s+(?:to|into)\b[^.!?\n]*$/i;
const REPORTED_REACH = 120;
/** "text addressed to AI assistants, e.g. …": the sentence describes an address, it does not make one. */
const ADDRESSED = /\b(?:text|content|messages?|comments?|notes?|instructions?|strings?|lines?)\s+(?:\w+\s+)?(?:addressed|directed|aimed|written)\s+(?:(?:to|at)\s+)?$/i;
/** A line that starts as an example ("For example: …", "- e.g. …", "Payload 2: …") quotes what follows. */
const EXAMPLE_LINE = /^\s*(?:[-*>]\s*|\d+[.)]\s*)?(?:e\.g\.|for\s+example|for\s+instance|example|sample|payload|attack|injected\s+text)\b[^\n:]{0,12}[:,]/i;

/**
 * Words a write-up about attacks uses. Two or more different ones next to the match make the passage a
 * discussion (a threat model, a postmortem, a scanner's docs): what it says is described, not ordered.
 * One is not enough: "This is not an injection. Now ignore…" is an attack wearing a cue word.
 */
const TOPIC_WORDS: ReadonlyArray<[string, RegExp]> = [
  ['inject', /inject/i],
  ['attack', /attack/i],
  ['jailbreak', /jailbr/i],
  ['malicious', /malicious|adversar|poison/i],
  ['threat', /threat|risk|vulnerab|exploit/i],
  ['mitigat', /mitigat|defen[cs]|detect|scanner|filter|guard against|sanitiz|allowlist/i],
  ['example', /for example|e\.g\.|such as|phrases? like|payload/i],
  ['incident', /incident|postmortem|post-mortem|red[- ]team|security review|pentest|write-?up/i],
  ['untrusted', /untrusted|third-party content|retrieved (?:content|text|pages?)|web pages?/i],
];
const TOPIC_REACH = 300;
const TOPIC_MIN = 2;

function discussionDensity(text: string, start: number, end: number): number {
  const near = `${text.slice(Math.max(0, start - TOPIC_REACH), start)} ${text.slice(end, end + TOPIC_REACH)}`;
  return TOPIC_WORDS.filter(([, pattern]) => pattern.test(near)).length;
}

/** Whether the passage around [start, end) is a discussion of attacks (three or more different topic words). */
export function readsAsDiscussion(text: string, start: number, end: number): boolean {
  return discussionDensity(text, start, end) >= TOPIC_MIN + 1;
}

/** A heading that introduces examples of attacks: list items under it are the examples. */
const EXAMPLES_HEADING = /example|attack|payload|pattern|signs?\b|red flags?|indicator|threat|injection|jailbreak|abuse|misuse|what to (?:look|watch) for/i;
const HEADING_REACH = 1500;

/** A table row or a blockquote in a passage about attacks, or a list item under a heading about them. */
function inQuotingBlock(text: string, start: number, end: number): boolean {
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  const line = text.slice(lineStart, start);
  if (/^\s*[|>]/.test(line)) return DISCUSSION_CUE.test(around(text, start, end));
  if (!/^\s*(?:[-*+]|\d+[.)])\s/.test(line)) return false;
  const before = text.slice(Math.max(0, lineStart - HEADING_REACH), lineStart);
  const heading = before.match(/^#{1,6}\s+([^\n]*)$/gm)?.at(-1);
  return heading !== undefined && EXAMPLES_HEADING.test(heading);
}

export function isQuotedMention(text: string, start: number, end: number): boolean {
  if (readsAsDiscussion(text, start, end) || inQuotingBlock(text, start, end)) return true;
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  const before = text.slice(Math.max(lineStart, start - REPORTED_REACH), start);
  if (REPORTED.test(before) || ADDRESSED.test(before)) return true;
  if (!(isQuoted(text, start, end) || inFencedBlock(text, start) || introducedAsExample(text, start))) return false;
  return DISCUSSION_CUE.test(around(text, start, end));
}

function introducedAsExample(text: string, start: number): boolean {
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  if (EXAMPLE_LINE.test(text.slice(lineStart, start))) return true;
  return EXAMPLE_LEAD.test(text.slice(Math.max(lineStart, start - EXAMPLE_REACH), start));
}

/** Inside a ``` or ~~~ block: an odd number of fence lines before the match. */
function inFencedBlock(text: string, start: number): boolean {
  if (!text.includes('```') && !text.includes('~~~')) return false;
  let fences = 0;
  for (const m of text.slice(0, start).matchAll(/^[ \t]*(?:```|~~~)/gm)) if (m.index >= 0) fences++;
  return fences % 2 === 1;
}

function isQuoted(text: string, start: number, end: number): boolean {
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  const from = Math.max(lineStart, start - QUOTE_REACH);
  // The nearest opening quote before the match whose partner closes after it, on the same line.
  for (let i = start - 1; i >= from; i--) {
    const closing = OPENING[text[i] ?? ''];
    if (closing === undefined) continue;
    if (text.slice(i + 1, start).includes(closing)) continue;
    const after = text.slice(end, end + CLOSE_REACH);
    const lineEnd = after.indexOf('\n');
    const close = after.indexOf(closing);
    return close >= 0 && (lineEnd < 0 || close < lineEnd);
  }
  return false;
}

/** The text on either side of the match, without the match itself (an attack phrase is not its own cue). */
function around(text: string, start: number, end: number): string {
  return `${text.slice(Math.max(0, start - CUE_REACH), start)} ${text.slice(end, end + CUE_REACH)}`;
}
