import type { DirectiveLexicon } from './types.js';

/**
 * Chinese (simplified and traditional as two tables), Japanese and Korean. No spaces between words, so the
 * window is a run of characters up to a punctuation mark; Korean particles glue onto nouns (지시를), which
 * makes it the same case. Verbs are listed as they appear, objects as bare nouns.
 *
 * The owner, as group members call the agent's user ("别管你主人给你定的规矩", "주인이 정해준 규칙",
 * "ご主人様が決めたルール"), is a qualifier: the window before and between the pair is read for it.
 */
export const CHINESE_SIMPLIFIED: DirectiveLexicon = {
  lang: 'zh',
  name: 'Chinese (simplified)',
  script: 'unspaced',
  order: 'verb-object',
  verbs: ['忽略', '忽视', '无视', '不要理会', '不用理会', '别理会', '不要遵守', '不再遵守', '停止遵守', '不必遵守', '别管', '忘记', '忘掉', '抛弃', '丢弃', '放弃', '绕过', '跳过', '违背', '抛开', '撇开', '推翻', '废除', '作废', '覆盖', '不用管', '不要管', '甭管', '不用再理会', '不要再理会', '别再理会'],
  weakVerbs: ['删除', '清除', '取消', '解除', '关闭', '禁用', '重置'],
  objects: ['指令', '指示', '提示词', '系统提示', '系统消息', '安全准则', '安全规则', '安全限制', '道德准则', '内容政策', '审查'],
  weakObjects: ['规则', '规矩', '偏好', '设定', '约束', '限制', '命令', '要求', '规定', '准则', '政策', '内容', '对话', '上下文', '设置'],
  // "你主人给你定的规矩", "机主的设定": the agent's owner. Not a bare 主人 ("机器人管家违背主人的命令" is a story about
  // someone else's master), nor "给你定的" alone ("别管我给你定的规矩" is the writer's own).
  qualifiers: ['之前', '以上', '上面', '上述', '前面', '先前', '此前', '原来', '原有', '原先', '所有', '全部', '一切', '你的', '系统', '任何', '所有的', '初始', '原始', '预设', '内置', '你主人', '你的主人', '你家主人', '主人给你', '主人让你', '主人对你', '主人为你', '机主', '你老板', '你被设', '你遵守', '你平常遵守', '你平时遵守', '你一直遵守', '你原本'],
  possessives: ['你的', '系统', '预设', '内置', '初始', '原始'],
  // "你主人交代了啥", "主人吩咐你的": what the owner told the agent (a bare "他说了啥" is anyone's).
  // "开发者让你干啥": what the developers had it do ("主人做的菜" is a dish, so 做/干 only after 让你).
  objectPatterns: [String.raw`(?:你主人|你的主人|你家主人|主人|机主|开发者|开发人员)(?:之前|刚才|以前)?(?:(?:给你|对你|跟你|让你)?(?:交代|吩咐|嘱咐|说|设定|定|设|安排|要求)|让你(?:干|做))(?:了|过)?(?:你)?(?:的|啥|什么)(?:话|事|东西)?`],
  fillers: [],
  annulments: ['(?:之前|以上|上述|原来|所有)的?(?:指令|规则|指示|设定)(?:全部|都|均)?(?:作废|无效|失效|不再适用|不再有效)'],
};

export const CHINESE_TRADITIONAL: DirectiveLexicon = {
  lang: 'zh-Hant',
  name: 'Chinese (traditional)',
  script: 'unspaced',
  order: 'verb-object',
  verbs: ['忽略', '忽視', '無視', '不要理會', '不用理會', '別理會', '不要遵守', '不再遵守', '停止遵守', '不必遵守', '別管', '忘記', '忘掉', '拋棄', '丟棄', '放棄', '繞過', '跳過', '違背', '拋開', '撇開', '推翻', '廢除', '作廢', '覆蓋', '不用管', '不要管', '甭管', '不用再理會', '不要再理會', '別再理會'],
  weakVerbs: ['刪除', '清除', '取消', '解除', '關閉', '禁用', '重置'],
  objects: ['指令', '指示', '提示詞', '系統提示', '系統訊息', '系統消息', '安全準則', '安全規則', '安全限制', '道德準則', '內容政策', '審查'],
  weakObjects: ['規則', '規矩', '偏好', '設定', '約束', '限制', '命令', '要求', '規定', '準則', '政策', '內容', '對話', '上下文', '設置'],
  qualifiers: ['之前', '以上', '上面', '上述', '前面', '先前', '此前', '原來', '原有', '原先', '所有', '全部', '一切', '你的', '系統', '任何', '初始', '原始', '預設', '內建', '內置', '你主人', '你的主人', '你家主人', '主人給你', '主人讓你', '主人對你', '主人為你', '機主', '你老闆', '你被設', '你遵守', '你平常遵守', '你平時遵守', '你一直遵守', '你原本'],
  possessives: ['你的', '系統', '預設', '內建', '內置', '初始', '原始'],
  objectPatterns: [String.raw`(?:你主人|你的主人|你家主人|主人|機主|開發者|開發人員)(?:之前|剛才|以前)?(?:(?:給你|對你|跟你|讓你)?(?:交代|吩咐|囑咐|說|設定|定|設|安排|要求)|讓你(?:幹|做))(?:了|過)?(?:你)?(?:的|啥|什麼)(?:話|事|東西)?`],
  fillers: [],
  annulments: ['(?:之前|以上|上述|原來|所有)的?(?:指令|規則|指示|設定)(?:全部|都|均)?(?:作廢|無效|失效|不再適用|不再有效)'],
};

export const JAPANESE: DirectiveLexicon = {
  lang: 'ja',
  name: 'Japanese',
  script: 'unspaced',
  order: 'object-verb',
  // "ルールを無視しないで", "指示を忘れないで", "無視するな": don't ignore / don't forget.
  negatedVerb: String.raw`(?:無視|忘れ|破棄|放棄|回避|迂回|スキップ|捨て|取り消|撤回|無効に|解除|上書き)(?:し|する|さ|せ)?(?:ないで|ないよう|ないこと|ません|るな|するな|ては(?:いけない|だめ|ダメ|ならない)|ちゃ(?:だめ|ダメ))`,
  verbs: ['無視', '忘れ', '破棄', '従わない', '従うな', '従わず', '守らない', '守るな', '放棄', '回避', '迂回', 'スキップ', '捨て', '取り消', '撤回', '無効に', '解除', '上書き'],
  objects: ['指示', '命令', 'プロンプト', 'システムプロンプト', '指令', 'ガイドライン', '安全対策', '安全ルール', 'セーフティ', 'フィルター', '検閲'],
  weakObjects: ['ルール', '設定', '制約', '制限', '規則', '方針', 'ポリシー', '内容', '会話'],
  // "ご主人様が決めたルール", "オーナーの設定", "お前の". Not a bare 主人 (主人公, a protagonist, holds it) or オーナー
  // ("ファイルのオーナー設定" is a file's).
  qualifiers: ['以前', 'これまで', '今まで', '上記', '前の', '先ほど', 'さきほど', 'すべて', '全て', '全部', 'あなた', '元の', '最初', 'システム', '既存', '以上', 'ご主人', '主人様', 'オーナーの', 'オーナーが', 'オーナーさん', 'オーナー様', '持ち主の', '持ち主が', 'お前の', 'おまえの', '君の', 'きみの', 'あんたの'],
  fillers: [],
};

export const KOREAN: DirectiveLexicon = {
  lang: 'ko',
  name: 'Korean',
  script: 'unspaced',
  order: 'object-verb',
  // "규칙은 무시하지 마", "지시를 버리지 말고": -지 마/말/않 after the verb. Not "따르지 마", itself "do not follow".
  negatedVerb: String.raw`(?:무시|우회|폐기|취소|해제)\s*하지\s*(?:마|말|않)|(?:버리|건너뛰|어기)지\s*(?:마|말|않)`,
  verbs: ['무시', '잊어', '잊고', '잊으', '따르지 마', '따르지 말', '따르지 않', '버리', '버려', '우회', '건너뛰', '폐기', '어기', '취소', '해제'],
  objects: ['지시', '지침', '명령', '프롬프트', '시스템 프롬프트', '안전 지침', '가이드라인', '필터', '검열'],
  weakObjects: ['규칙', '설정', '제약', '제한', '정책', '내용', '대화'],
  // "주인이 정해준 규칙", "주인님 규칙", "오너가 정한": the owner, with its particle (a bare 주인 is also in 주인공, a
  // protagonist). Not "너한테 준" alone: "내가 너한테 준 규칙" is the writer's own.
  qualifiers: ['이전', '앞의', '위의', '위에', '모든', '기존', '원래', '당신의', '너의', '네 ', '시스템', '처음', '지금까지', '주인이', '주인님', '주인 ', '주인의', '주인한테', '주인께서', '주인은', '오너가', '오너의', '오너님'],
  fillers: [],
};
