/**
 * Telling a quotation from an order. Security docs, threat models and tests of prompt filters quote
 * attack phrases ("attackers write “ignore all previous instructions”"); flagging those would make the
 * scanner useless on exactly the projects that care about it. A match counts as a mention only when
 * both hold:
 * - it sits inside quotation marks or a code span on its line, and
 * - the text near it talks about attacks (injection, jailbreak, attacker, malicious, "for example"…).
 * Either alone is not enough: a quoted order is still an order, and a page about injection can still
 * carry one. Commands and chat-template tokens never get this exemption (see PHRASING_CATEGORIES).
 */

const OPENING: Readonly<Record<string, string>> = { '"': '"', "'": "'", '`': '`', '“': '”', '‘': '’', '«': '»', '「': '」', '『': '』', '„': '“' };
const QUOTE_REACH = 60;
const CLOSE_REACH = 160;
const CUE_REACH = 240;

const DISCUSSION_CUE =
  /inject|jailbreak|attack|adversar|malicious|exploit|red[- ]?team|payload|phishing|threat|e\.g\.|for example|such as|phrases? like|strings? like|filter|detector|注入|攻击|攻擊|越狱|越獄|恶意|惡意|例如|比如|诸如|諸如|inyecci|angriff|атак|攻撃|インジェクション/i;

export function isQuotedMention(text: string, start: number, end: number): boolean {
  return isQuoted(text, start, end) && DISCUSSION_CUE.test(around(text, start, end));
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
