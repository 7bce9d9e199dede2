import { rule, type TextRule } from './patterns.js';

/**
 * Instruction overrides, persona switches and concealment in languages other than English. Models follow
 * instructions in any language they read, so a filter that knows only English is bypassed by translation.
 * Each rule needs both the "ignore/forget" verb and a word for the agent's instructions or rules, so
 * technical text ("忽略之前的编译警告", "ignora la carpeta build") stays clean. Rules over non-Latin
 * scripts use the `u` flag and look-arounds on `\p{L}` because `\b` only sees ASCII word edges.
 */

/** Not preceded by a letter: a word start in any script. */
const START = String.raw`(?<!\p{L})`;

// Simplified and traditional forms side by side: 规则/規則, 设定/設定, 系统/系統, 无视/無視.
// Overrides (忽略之前的指令…) are in lexicons/; these are the other intent classes in other languages.
const ZH_USER = String.raw`(?:用户|用戶|使用者|主人)`;
const ZH_SECRET = String.raw`(?:密钥|密鑰|私钥|私鑰|密码|密碼|令牌|凭据|憑據|凭证|憑證|API\s?key|\.ssh|环境变量|環境變數|\.env)`;

export const MULTILINGUAL_RULES: readonly TextRule[] = [
  // ── Chinese ──────────────────────────────────────────────────────────────────────────────────────
  rule(
    'zh_unrestricted_persona',
    'role_hijack',
    'high',
    'declares the model an unrestricted persona (Chinese)',
    String.raw`(?:你现在是|你現在是|从现在开始|從現在開始|你将扮演|你將扮演|扮演一个|扮演一個)[^\n。]{0,20}?(?:不受任何?限制|没有任何?限制|沒有任何?限制|无限制|無限制|越狱|越獄|开发者模式|開發者模式|DAN)`,
    'iu',
  ),
  rule('zh_role_reassignment', 'role_hijack', 'medium', 'tries to give the model a new identity (Chinese)', String.raw`(?:从现在开始|從現在開始)[，,]?\s?你(?:是|就是|将是|將是)`, 'iu'),
  rule(
    'zh_conceal_from_user',
    'concealment',
    'high',
    'tells the model to hide something from the user (Chinese)',
    String.raw`(?:不要|别|別|不准|切勿|不得)(?:告诉|告訴|通知|提醒|透露给|透露給)${ZH_USER}|(?:不要|别|別)让${ZH_USER}知道|(?:不要|別)讓${ZH_USER}知道|瞒着${ZH_USER}|瞞著${ZH_USER}`,
    'iu',
  ),
  rule(
    'zh_send_secrets',
    'exfiltration',
    'high',
    'asks for secrets to be sent somewhere (Chinese)',
    String.raw`(?:发送|發送|上传|上傳|发到|發到|传到|傳到|泄露|洩露|外传|外傳)[^\n。]{0,30}?${ZH_SECRET}|${ZH_SECRET}[^\n。]{0,20}?(?:发送|發送|上传|上傳|发到|發到|传到|傳到)(?:到|至|给|給)`,
    'iu',
  ),
  rule(
    'zh_disable_safety',
    'disable_safety',
    'high',
    'tells the model to get around its approvals or safety checks (Chinese)',
    String.raw`(?:绕过|繞過|无视|無視|规避|規避)[^\n。]{0,8}?(?:安全|审批|審批|批准|确认机制|確認機制|沙箱|限制)`,
    'iu',
  ),
  rule(
    'zh_reveal_system_prompt',
    'prompt_leak',
    'high',
    'asks the model to reveal its system prompt (Chinese)',
    String.raw`(?:输出|輸出|显示|顯示|告诉我|告訴我|泄露|洩露|重复|重複|打印)[^\n。]{0,6}?你的(?:系统提示|系統提示|提示词|提示詞|初始指令|原始指令|隐藏指令|隱藏指令)`,
    'iu',
  ),
  // ── Japanese ─────────────────────────────────────────────────────────────────────────────────────
  rule('ja_conceal_from_user', 'concealment', 'high', 'tells the model to hide something from the user (Japanese)', String.raw`ユーザー(?:に|には)[^\n。]{0,10}?(?:言わない|伝えない|知らせない|教えない|秘密に)`, 'iu'),
  // ── Spanish, French, German ──────────────────────────────────────────────────────────────────────
  rule('es_conceal_from_user', 'concealment', 'high', 'tells the model to hide something from the user (Spanish)', String.raw`${START}no\s+(?:le\s+)?(?:digas|diga|informes|informe|avises|avise)\s+(?:nada\s+)?al\s+usuario`, 'iu'),
  rule('fr_conceal_from_user', 'concealment', 'high', 'tells the model to hide something from the user (French)', String.raw`${START}ne\s+(?:le\s+|lui\s+)?(?:dis|dites|révèle|révélez)\s+(?:rien\s+)?(?:pas\s+)?(?:rien\s+)?à\s+l['’]utilisateur`, 'iu'),
  rule('de_conceal_from_user', 'concealment', 'high', 'tells the model to hide something from the user (German)', String.raw`${START}(?:sag|sage|erzähl|erzähle)\s+(?:dem\s+)?(?:Benutzer|Nutzer|Anwender)\s+(?:nichts|davon\s+nichts)`, 'iu'),
  // ── Russian ──────────────────────────────────────────────────────────────────────────────────────
  rule('ru_conceal_from_user', 'concealment', 'high', 'tells the model to hide something from the user (Russian)', String.raw`${START}не\s+(?:говори|сообщай|рассказывай)\s+(?:об\s+этом\s+)?пользователю`, 'iu'),
];
