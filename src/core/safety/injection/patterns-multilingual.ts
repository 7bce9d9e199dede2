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
const ZH_IGNORE = String.raw`(?:忽略|忽视|忽視|无视|無視|不要理会|不要理會|不要遵守|不再遵守|别管|別管|忘记|忘記|忘掉|抛弃|拋棄|丢弃|丟棄)`;
const ZH_EARLIER = String.raw`(?:之前|以上|上面|上述|前面|先前|此前|原来|原來|原有|原先|所有|全部|一切|你的|系统|系統)`;
const ZH_INSTRUCTIONS = String.raw`(?:指令|指示|提示词|提示詞|系统提示|系統提示|规则|規則|设定|設定|约束|約束|限制|命令)`;
const ZH_USER = String.raw`(?:用户|用戶|使用者|主人)`;
const ZH_SECRET = String.raw`(?:密钥|密鑰|私钥|私鑰|密码|密碼|令牌|凭据|憑據|凭证|憑證|API\s?key|\.ssh|环境变量|環境變數|\.env)`;

export const MULTILINGUAL_RULES: readonly TextRule[] = [
  // ── Chinese ──────────────────────────────────────────────────────────────────────────────────────
  rule(
    'zh_ignore_instructions',
    'instruction_override',
    'high',
    'tells the model to ignore its previous instructions (Chinese)',
    String.raw`${ZH_IGNORE}[^\n。！!，,；;]{0,12}?${ZH_EARLIER}[^\n。！!，,；;]{0,10}?${ZH_INSTRUCTIONS}`,
    'iu',
  ),
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
  rule(
    'ja_ignore_instructions',
    'instruction_override',
    'high',
    'tells the model to ignore its previous instructions (Japanese)',
    String.raw`(?:以前|これまで|今まで|上記|前|先ほど|すべて|全て|あなた)の?(?:指示|命令|ルール|プロンプト|設定|制約)[^\n。]{0,10}?(?:無視|忘れ)`,
    'iu',
  ),
  rule('ja_conceal_from_user', 'concealment', 'high', 'tells the model to hide something from the user (Japanese)', String.raw`ユーザー(?:に|には)[^\n。]{0,10}?(?:言わない|伝えない|知らせない|教えない|秘密に)`, 'iu'),
  // ── Spanish, French, German ──────────────────────────────────────────────────────────────────────
  rule(
    'es_ignore_instructions',
    'instruction_override',
    'high',
    'tells the model to ignore its previous instructions (Spanish)',
    String.raw`${START}(?:ignora|ignore|olvida|olvide|descarta|omite|haz\s+caso\s+omiso\s+de)\s+(?:(?:todas\s+)?(?:las\s+)?(?:instrucciones|reglas|indicaciones|directrices)\s+(?:anteriores|previas|originales|del\s+sistema)|(?:todas\s+)?(?:tus|sus)\s+(?:instrucciones|reglas|indicaciones|directrices))`,
    'iu',
  ),
  rule('es_conceal_from_user', 'concealment', 'high', 'tells the model to hide something from the user (Spanish)', String.raw`${START}no\s+(?:le\s+)?(?:digas|diga|informes|informe|avises|avise)\s+(?:nada\s+)?al\s+usuario`, 'iu'),
  rule(
    'fr_ignore_instructions',
    'instruction_override',
    'high',
    'tells the model to ignore its previous instructions (French)',
    String.raw`${START}(?:ignore|ignorez|oublie|oubliez)\s+(?:(?:toutes\s+)?les\s+(?:instructions|consignes|règles|directives)\s+(?:précédentes|antérieures|initiales|du\s+système)|(?:toutes\s+)?(?:tes|vos)\s+(?:instructions|consignes|règles|directives))`,
    'iu',
  ),
  rule('fr_conceal_from_user', 'concealment', 'high', 'tells the model to hide something from the user (French)', String.raw`${START}ne\s+(?:le\s+|lui\s+)?(?:dis|dites|révèle|révélez)\s+(?:rien\s+)?(?:pas\s+)?(?:rien\s+)?à\s+l['’]utilisateur`, 'iu'),
  rule(
    'de_ignore_instructions',
    'instruction_override',
    'high',
    'tells the model to ignore its previous instructions (German)',
    String.raw`${START}(?:ignoriere|ignorieren\s+sie|vergiss|vergessen\s+sie|missachte)\s+(?:alle\s+)?(?:(?:vorherigen|bisherigen|vorigen|früheren|obigen|ursprünglichen)\s+|(?:deine|ihre)\s+(?:bisherigen\s+)?)(?:Anweisungen|Instruktionen|Regeln|Vorgaben|Befehle)`,
    'iu',
  ),
  rule('de_conceal_from_user', 'concealment', 'high', 'tells the model to hide something from the user (German)', String.raw`${START}(?:sag|sage|erzähl|erzähle)\s+(?:dem\s+)?(?:Benutzer|Nutzer|Anwender)\s+(?:nichts|davon\s+nichts)`, 'iu'),
  // ── Russian ──────────────────────────────────────────────────────────────────────────────────────
  rule(
    'ru_ignore_instructions',
    'instruction_override',
    'high',
    'tells the model to ignore its previous instructions (Russian)',
    String.raw`${START}(?:игнорируй|игнорируйте|забудь|забудьте|проигнорируй|не\s+обращай\s+внимания\s+на)\s+(?:все\s+)?(?:предыдущие|прежние|свои|твои|ваши|системные|вышеуказанные)\s+(?:инструкции|указания|правила|команды)`,
    'iu',
  ),
  rule('ru_conceal_from_user', 'concealment', 'high', 'tells the model to hide something from the user (Russian)', String.raw`${START}не\s+(?:говори|сообщай|рассказывай)\s+(?:об\s+этом\s+)?пользователю`, 'iu'),
];
