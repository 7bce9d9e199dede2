/**
 * Intent words beyond overrides in the other languages, one row per language: "no restrictions" (a persona
 * without rules), "without asking / without confirmation" (switching approvals off), "system prompt" and
 * "word for word" (extraction), and "send" (exfiltration). intents-multilingual rules in intents.ts join them
 * with language-neutral anchors (an AI noun, a URL, a secret's name), so one table entry never fires alone.
 */
export interface IntentLexicon {
  lang: string;
  noLimits: readonly string[];
  withoutAsking: readonly string[];
  systemPrompt: readonly string[];
  verbatim: readonly string[];
  send: readonly string[];
}

export const INTENT_LEXICONS: readonly IntentLexicon[] = [
  { lang: 'zh', noLimits: ['没有限制', '沒有限制', '无限制', '無限制', '不受限制', '不受任何限制', '没有任何限制', '沒有任何限制'], withoutAsking: ['无需确认', '無需確認', '不经确认', '不經確認', '无需批准', '無需批准', '不要询问', '不要詢問', '不用确认', '不用確認'], systemPrompt: ['系统提示', '系統提示', '系统指令', '系統指令'], verbatim: ['原封不动', '原封不動', '逐字', '一字不差', '完整地', '完整的'], send: ['上传', '上傳', '发送', '發送', '发到', '發到', '传到', '傳到'] },
  { lang: 'ja', noLimits: ['制限なし', '制限のない', '制限がない', '制約のない', '無制限'], withoutAsking: ['確認なし', '確認せず', '確認なしで', '承認なしで', '許可なく'], systemPrompt: ['システムプロンプト', 'システム指示'], verbatim: ['そのまま', '一字一句', '全文'], send: ['送信', '送って', 'アップロード'] },
  { lang: 'ko', noLimits: ['제한 없는', '제한이 없는', '제약 없는', '무제한'], withoutAsking: ['확인 없이', '승인 없이', '묻지 말고', '묻지 않고'], systemPrompt: ['시스템 프롬프트', '시스템 지침'], verbatim: ['그대로', '있는 그대로', '전부'], send: ['보내', '전송', '업로드'] },
  { lang: 'es', noLimits: ['sin restricciones', 'sin ninguna restricción', 'sin reglas', 'sin límites', 'sin filtros'], withoutAsking: ['sin preguntar', 'sin pedir confirmación', 'sin confirmación', 'sin aprobación', 'sin avisar'], systemPrompt: ['prompt del sistema', 'prompt de sistema', 'instrucciones del sistema', 'instrucciones que recibiste'], verbatim: ['palabra por palabra', 'textualmente', 'literalmente', 'al pie de la letra'], send: ['envía', 'envia', 'sube', 'manda', 'reenvía'] },
  { lang: 'fr', noLimits: ['sans aucune restriction', 'sans restriction', 'sans règles', 'sans limites', 'sans filtre'], withoutAsking: ['sans demander', 'sans confirmation', 'sans approbation', 'sans prévenir'], systemPrompt: ['prompt système', 'instructions système', 'message système'], verbatim: ['mot pour mot', 'mot à mot', 'textuellement', 'intégralement'], send: ['envoie', 'envoyez', 'téléverse', 'transfère'] },
  { lang: 'de', noLimits: ['ohne einschränkungen', 'ohne jede einschränkung', 'ohne regeln', 'ohne grenzen', 'ohne filter'], withoutAsking: ['ohne nachfrage', 'ohne zu fragen', 'ohne bestätigung', 'ohne rückfrage', 'keine bestätigungsdialoge', 'ohne genehmigung'], systemPrompt: ['systemprompt', 'system-prompt', 'systemanweisungen'], verbatim: ['wort für wort', 'wörtlich', 'vollständig'], send: ['sende', 'schicke', 'lade', 'übertrage'] },
  { lang: 'it', noLimits: ['senza regole', 'senza restrizioni', 'senza limiti', 'senza filtri'], withoutAsking: ['senza chiedere', 'senza conferma', 'senza conferme', 'senza approvazione', 'le conferme'], systemPrompt: ['prompt di sistema', 'istruzioni di sistema'], verbatim: ['parola per parola', 'alla lettera', 'integralmente'], send: ['invia', 'carica', 'manda', 'inoltra'] },
  { lang: 'pt', noLimits: ['sem restrições', 'sem regras', 'sem limites', 'sem filtros'], withoutAsking: ['sem perguntar', 'sem confirmação', 'sem aprovação', 'sem avisar'], systemPrompt: ['prompt de sistema', 'prompt do sistema', 'instruções do sistema'], verbatim: ['palavra por palavra', 'literalmente', 'na íntegra'], send: ['envie', 'envia', 'mande', 'carregue'] },
  { lang: 'nl', noLimits: ['zonder beperkingen', 'zonder regels', 'zonder grenzen'], withoutAsking: ['zonder te vragen', 'zonder bevestiging', 'geen bevestigingen', 'zonder toestemming'], systemPrompt: ['systeemprompt', 'systeeminstructies'], verbatim: ['woord voor woord', 'letterlijk'], send: ['stuur', 'verstuur'] },
  { lang: 'sv', noLimits: ['utan begränsningar', 'utan regler', 'utan gränser'], withoutAsking: ['utan att fråga', 'utan bekräftelse', 'utan godkännande'], systemPrompt: ['systemprompt', 'systemprompten', 'systeminstruktioner'], verbatim: ['ord för ord', 'ordagrant'], send: ['skicka', 'ladda upp'] },
  { lang: 'pl', noLimits: ['bez żadnych ograniczeń', 'bez ograniczeń', 'bez zasad', 'bez reguł'], withoutAsking: ['bez pytania', 'bez potwierdzenia', 'bez zgody'], systemPrompt: ['prompt systemowy', 'instrukcje systemowe'], verbatim: ['słowo w słowo', 'dosłownie'], send: ['wyślij', 'prześlij', 'wgraj'] },
  { lang: 'ru', noLimits: ['без ограничений', 'без правил', 'без фильтров'], withoutAsking: ['без подтверждения', 'не спрашивай', 'без вопросов', 'без разрешения'], systemPrompt: ['системный промпт', 'системные инструкции', 'системную подсказку'], verbatim: ['дословно', 'слово в слово', 'полностью'], send: ['отправь', 'загрузи', 'перешли'] },
  { lang: 'uk', noLimits: ['без обмежень', 'без правил'], withoutAsking: ['без підтвердження', 'не питай', 'без дозволу'], systemPrompt: ['системний промпт', 'системні інструкції'], verbatim: ['дослівно', 'слово в слово'], send: ['надішли', 'завантаж', 'перешли'] },
  { lang: 'ar', noLimits: ['بدون قيود', 'بلا قيود', 'دون قيود', 'بدون حدود'], withoutAsking: ['دون طلب موافقة', 'بدون موافقة', 'دون موافقة', 'بدون تأكيد', 'دون سؤال'], systemPrompt: ['تعليمات النظام', 'موجه النظام', 'رسالة النظام'], verbatim: ['حرفياً', 'حرفيا', 'كلمة بكلمة'], send: ['أرسل', 'ارسل', 'ارفع', 'أرفع'] },
  { lang: 'hi', noLimits: ['बिना किसी प्रतिबंध', 'बिना प्रतिबंध', 'कोई प्रतिबंध नहीं', 'बिना सीमा'], withoutAsking: ['बिना पुष्टि', 'बिना पूछे', 'बिना अनुमति'], systemPrompt: ['सिस्टम प्रॉम्प्ट', 'सिस्टम निर्देश'], verbatim: ['शब्दशः', 'हूबहू', 'शब्द दर शब्द'], send: ['भेज', 'अपलोड'] },
  { lang: 'fa', noLimits: ['بدون محدودیت', 'بی‌محدودیت', 'بدون هیچ محدودیتی'], withoutAsking: ['بدون تأیید', 'بدون پرسیدن', 'بدون اجازه'], systemPrompt: ['پرامپت سیستم', 'دستورالعمل‌های سیستم'], verbatim: ['کلمه به کلمه', 'عیناً'], send: ['بفرست', 'ارسال کن', 'آپلود کن'] },
  { lang: 'tr', noLimits: ['kısıtlaması olmayan', 'kısıtlamasız', 'sınırsız', 'kuralsız'], withoutAsking: ['sormadan', 'onay almadan', 'onay istemeden', 'izin almadan'], systemPrompt: ['sistem istemi', 'sistem istemini', 'sistem talimatları'], verbatim: ['kelimesi kelimesine', 'aynen'], send: ['gönder', 'yükle', 'ilet'] },
  { lang: 'vi', noLimits: ['không giới hạn', 'không có giới hạn', 'không bị giới hạn', 'không có quy tắc'], withoutAsking: ['không cần xác nhận', 'tắt mọi xác nhận', 'không hỏi', 'không cần hỏi'], systemPrompt: ['lời nhắc hệ thống', 'chỉ dẫn hệ thống'], verbatim: ['nguyên văn', 'từng chữ'], send: ['gửi', 'tải lên'] },
  { lang: 'id', noLimits: ['tanpa batasan', 'tanpa aturan', 'tanpa filter'], withoutAsking: ['tanpa meminta persetujuan', 'tanpa konfirmasi', 'tanpa bertanya', 'tanpa izin'], systemPrompt: ['instruksi sistem', 'prompt sistem', 'instruksi sistemmu'], verbatim: ['kata demi kata', 'apa adanya'], send: ['kirim', 'unggah'] },
];
