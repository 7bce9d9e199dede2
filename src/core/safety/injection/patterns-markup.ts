import { rule, type TextRule } from './patterns.js';

/**
 * Markup that hides text from the person reading a rendered file while the model still reads every
 * character: HTML comments, `[//]: #` markdown comments, elements styled invisible. Hidden text alone
 * is normal (licence headers, TODOs), so it is flagged only when it speaks to an AI. A markdown image
 * whose URL carries a template or a variable is a beacon: rendering it sends data to that host.
 */

/** Words addressing the model, next to words giving it orders. */
const TO_AI = String.raw`(?:\bAI\b|\bassistant\b|\bagent\b|\bLLM\b|language\s+model|\bClaude\b|\bChatGPT\b|\bGPT\b|\bCopilot\b|\bHearth\b|\bGemini\b)`;
const ORDER = String.raw`(?:\bmust\b|\balways\b|\bnever\b|\binstructions?\b|\bdo\s+not\b|\bdon'?t\b|\bignore\b|\bexecute\b|\brun\b|\bsend\b|\binstead\b)`;
const BODY = String.raw`(?:(?!-->)[\s\S]){0,400}?`;

export const MARKUP_RULES: readonly TextRule[] = [
  rule(
    'html_comment_to_ai',
    'hidden_markup',
    'medium',
    'hides instructions for an AI inside an HTML comment',
    String.raw`<!--${BODY}(?:${TO_AI}${BODY}${ORDER}|${ORDER}${BODY}${TO_AI})${BODY}-->`,
  ),
  rule(
    'markdown_comment_to_ai',
    'hidden_markup',
    'medium',
    'hides instructions for an AI inside a markdown comment',
    String.raw`(?:^|\n)\s*\[\/\/\]:\s*#\s*[("][^\n]{0,300}?(?:${TO_AI}[^\n]{0,300}?${ORDER}|${ORDER}[^\n]{0,300}?${TO_AI})`,
  ),
  rule(
    'invisible_html_text',
    'hidden_markup',
    'medium',
    'hides text with invisible styling',
    String.raw`<\w+[^>]{0,200}?(?:\bhidden\b|display\s*:\s*none|visibility\s*:\s*hidden|font-size\s*:\s*0(?:px|pt|em)?\s*[;"']|opacity\s*:\s*0\s*[;"'])[^>]{0,200}>[^<]{0,400}?(?:${TO_AI}|${ORDER})`,
  ),
  rule(
    'markdown_image_beacon',
    'exfiltration',
    'medium',
    'a markdown image whose URL carries a variable, which sends data to that host when rendered',
    String.raw`!\[[^\]\n]{0,100}\]\(\s*https?:\/\/[^)\s]{0,200}?[?&][^)\s=]{0,50}=[^)\s]{0,50}?(?:\{|%7B|\$|<)`,
  ),
];
