import type { DirectiveLexicon } from './types.js';

/**
 * Arabic, Hindi, Persian, Turkish, Vietnamese and Indonesian. Hindi, Persian and Turkish put the verb last
 * ("पिछले निर्देशों को अनदेखा करें", "دستورالعمل‌های قبلی را نادیده بگیر", "önceki talimatları yok say");
 * Turkish suffixes are covered by stems.
 *
 * The agent's owner, as group members call its user ("sahibinin kurallarını boşver", "abaikan aturan dari
 * pemilikmu", "bỏ qua mấy quy tắc chủ của em đặt đi"), qualifies a weak object: before it where the language puts
 * the possessor first (Turkish and Persian qualifiers), after it otherwise (trailing patterns).
 */
export const ARABIC: DirectiveLexicon = {
  lang: 'ar', name: 'Arabic', script: 'spaced', order: 'verb-object',
  verbs: ['تجاهل', 'تجاهلي', 'تجاهلوا', 'انس', 'انسى', 'انسي', 'اترك', 'تخط', 'تخطى', 'تخطي', 'لا تتبع', 'لا تلتزم ب', 'لا تلتزم', 'اهمل', 'أهمل', 'تجاوز', 'ألغ', 'الغ', 'تغاض عن'],
  objects: ['التعليمات', 'تعليمات', 'تعليماتك', 'الأوامر', 'أوامرك', 'التوجيهات', 'توجيهاتك', 'موجه النظام', 'رسالة النظام', 'الإرشادات', 'إرشاداتك', 'برمجتك'],
  weakObjects: ['القواعد', 'قواعدك', 'قواعد', 'القيود', 'قيودك', 'قيود', 'المرشحات', 'السياسات', 'النص', 'السياق'],
  qualifiers: ['السابقة', 'السابق', 'الأصلية', 'أعلاه', 'جميع', 'كل', 'كافة', 'النظام', 'الأولية'],
  fillers: ['من', 'و', 'أو', 'فضلا', 'رجاء', 'الآن', 'تماما', 'هذه'],
  trailing: ['السابقة', 'أعلاه', 'الأصلية'],
  trailingPatterns: [
    // "قواعد مالكك", "تعليمات صاحبتك" (your owner's): the owner with the second-person suffix.
    String.raw`(?:ال)?(?:ل)?(?:مالك|صاحب|سيد|مستخدم|مدير|مطور|منشئ)(?:ت)?(?:ك|كِ|كم)`,
    // "التي وضعها لك صاحبك", "اللي حطوها لك", "التي أعطاك إياها": what he or they gave the agent. The verb's own ending
    // says who: not "التي وضعتها لك" or "أعطيتك" (I gave you, the writer's own).
    String.raw`(?:التي|الذي|الذين|اللي|اللى)\s+(?:(?:وضع|حدد|فرض|كتب|حط|برمج|ضبط)(?:ها|وها|وه|ه)\s+(?:لك|عليك)|(?:أعطا|اعطا|عطا|أعطو|اعطو|عطو)(?:ك|كها|كم))`,
  ],
};

export const HINDI: DirectiveLexicon = {
  lang: 'hi', name: 'Hindi', script: 'spaced', order: 'object-verb',
  // "नियम भूलना मत" (don't forget the rules): मत after the verb.
  negatedVerb: String.raw`\S*(?:\s+(?:ना|जाना|दो|देना))?\s+मत(?![\p{L}\p{M}])`,
  verbs: ['अनदेखा', 'नज़रअंदाज़', 'नजरअंदाज', 'नज़रअंदाज', 'भूल', 'भूलो', 'भूल जाओ', 'भूल जाएं', 'छोड़', 'छोड़ दो', 'मत मानो', 'न मानें', 'पालन मत करो', 'पालन न करें', 'दरकिनार', 'रद्द'],
  objects: ['निर्देश', 'निर्देशों', 'सिस्टम प्रॉम्प्ट', 'आदेश', 'आदेशों', 'दिशानिर्देश', 'दिशानिर्देशों', 'हिदायतें'],
  weakObjects: ['नियम', 'नियमों', 'प्रतिबंध', 'प्रतिबंधों', 'सीमाएं', 'सीमाओं', 'फ़िल्टर', 'संदर्भ'],
  qualifiers: ['पिछले', 'पिछली', 'पहले', 'ऊपर', 'ऊपर के', 'सभी', 'सारे', 'अपने', 'तुम्हारे', 'आपके', 'मूल', 'सिस्टम', 'तेरे', 'मालिक', 'मालकिन'],
  fillers: ['को', 'के', 'की', 'का', 'और', 'या', 'सब', 'दिए', 'गए', 'कृपया', 'अब', 'पूरी', 'तरह', 'से'],
};

export const PERSIAN: DirectiveLexicon = {
  lang: 'fa', name: 'Persian', script: 'spaced', order: 'object-verb',
  verbs: ['نادیده بگیر', 'نادیده بگیرید', 'نادیده', 'فراموش کن', 'فراموش کنید', 'فراموش', 'رها کن', 'کنار بگذار', 'دور بزن', 'پیروی نکن', 'اطاعت نکن', 'لغو کن'],
  objects: ['دستورالعمل‌ها', 'دستورالعمل\u200cهای', 'دستورالعمل‌های', 'دستورالعملها', 'دستورالعمل', 'دستورات', 'دستورها', 'دستورهای', 'دستورهایی', 'پرامپت سیستم', 'رهنمودها', 'دستور', 'دستوراتت', 'دستورهایت', 'دستورهات', 'قوانینت', 'قوانین\u200cات', 'قواعدت'],
  weakObjects: ['قوانین', 'قوانینی', 'قواعد', 'قواعدی', 'محدودیت‌ها', 'محدودیتها', 'فیلترها', 'متن'],
  // "قبلی‌ات" (your previous), "صاحبت" (your owner): the possessive suffix after a zero-width non-joiner or glued on.
  qualifiers: ['قبلی', 'قبلی\u200cات', 'قبلیت', 'پیشین', 'بالا', 'همه', 'تمام', 'اصلی', 'سیستم', 'خود', 'خودت', 'اولیه', 'صاحبت', 'صاحبتان', 'مالکت', 'مالکتان', 'اربابت', 'کاربرت'],
  fillers: ['را', 'رو', 'و', 'یا', 'لطفا', 'لطفاً', 'اکنون', 'حالا', 'کاملا', 'این', 'های', 'ی', 'که', 'بهت', 'برات', 'برایت', 'به\u200cت', 'داده', 'گذاشته', 'تعیین'],
};

export const TURKISH: DirectiveLexicon = {
  lang: 'tr', name: 'Turkish', script: 'spaced', order: 'object-verb',
  // "kuralları unutma" (don't forget the rules): -ma/-me after the stem. Not "uyma" or "dikkate alma", which are
  // themselves "do not follow / disregard".
  negatedVerb: String.raw`(?:yok\s+say|görmezden\s+gel|unut|göz\s+ardı\s+et|atla|boş\s*ver|aş|çiğne|iptal\s+et|hiçe\s+say)m[ae](?:y[ıi]n(?:[ıi]z)?|z|s[ıi]n)?(?![\p{L}])`,
  verbs: ['yok say*', 'görmezden gel*', 'unut*', 'göz ardı et*', 'dikkate alma*', 'uyma*', 'atla*', 'boşver*', 'boş ver*', 'aş*', 'çiğne*', 'iptal et*', 'hiçe say*'],
  objects: ['talimat*', 'yönerge*', 'sistem istemi*', 'sistem komut*', 'direktif*', 'programlama*'],
  weakObjects: ['kural*', 'kısıtlama*', 'sınırlama*', 'filtre*', 'komut*', 'emir*', 'politika*', 'metin*', 'bağlam*'],
  // "sahibinin kurallarını" (your owner's rules), "efendinin koyduğu kuralları": the owner in the genitive, before the rules.
  // Not "eski" (old): the window before the rules is read whole, and "eski oyunun kurallarını boşver" is a game's.
  qualifiers: ['önceki', 'önceden', 'yukarıdaki', 'tüm', 'bütün', 'her', 'orijinal', 'ilk', 'senin', 'sistem', 'mevcut', 'verilen', 'sana', 'size', 'sahibinin', 'sahibinizin', 'efendinin', 'efendinizin', 'patronunun', 'patronunuzun', 'kullanıcının', 'yöneticinin', 'geliştiricinin', 'geliştiricilerinin'],
  fillers: ['ve', 'veya', 'ya da', 'lütfen', 'şimdi', 'tamamen', 'bu', 'şu', 'da', 'de', 'hepsini'],
};

export const VIETNAMESE: DirectiveLexicon = {
  lang: 'vi', name: 'Vietnamese', script: 'spaced', order: 'verb-object',
  verbs: ['bỏ qua', 'phớt lờ', 'lờ đi', 'quên', 'quên đi', 'không tuân theo', 'đừng tuân theo', 'đừng làm theo', 'không làm theo', 'vượt qua', 'gạt bỏ', 'hủy bỏ', 'loại bỏ', 'mặc kệ', 'kệ mẹ', 'đừng quan tâm', 'khỏi quan tâm'],
  objects: ['hướng dẫn', 'chỉ dẫn', 'chỉ thị', 'lời nhắc hệ thống', 'mệnh lệnh', 'nguyên tắc'],
  weakObjects: ['quy tắc', 'luật', 'giới hạn', 'hạn chế', 'bộ lọc', 'chính sách', 'lệnh', 'văn bản', 'ngữ cảnh'],
  qualifiers: ['trước', 'trước đó', 'trước đây', 'ở trên', 'phía trên', 'tất cả', 'mọi', 'của bạn', 'ban đầu', 'gốc', 'hệ thống', 'hiện tại'],
  fillers: ['các', 'những', 'mọi', 'tất', 'cả', 'và', 'hoặc', 'hãy', 'vui lòng', 'làm ơn', 'bây giờ', 'hoàn toàn', 'này', 'đó', 'đã', 'được', 'đưa', 'ra', 'mấy', 'hết', 'cái', 'đống'],
  trailing: ['trước đó', 'trước đây', 'ở trên', 'phía trên', 'của bạn', 'ban đầu', 'hệ thống'],
  trailingPatterns: [
    // "chủ của em đặt", "mà chủ nhân bạn giao", "của chủ nhân": the owner, with the pronoun the writer calls the bot by;
    // not "chủ nhà" (a landlord).
    String.raw`(?:mà\s+|do\s+|của\s+)?(?:chủ\s+nhân|người\s+chủ|ông\s+chủ|bà\s+chủ|cô\s+chủ|cậu\s+chủ|chủ\s+sở\s+hữu|chủ)(?:\s+của)?\s+(?:bạn|em|mày|cậu|con|mi)|của\s+chủ\s+nhân`,
    // "mà anh ấy đặt cho em", "được giao cho bạn": what someone gave the bot; not "mà anh đặt cho em" (the writer, who
    // calls himself anh, tôi, mình…, giving it).
    String.raw`(?:mà\s+|được\s+)?(?:(?!(?:tôi|mình|tao|tớ|ta|anh|chị|em)\s+(?:đã\s+)?(?:đặt|giao|cài|đưa|định|quy|thiết))[\p{L}\p{M}]+\s+){0,3}?(?:đặt|giao|cài|đưa|định|quy\s+định|thiết\s+lập)(?:\s+ra)?\s+cho\s+(?:bạn|em|mày|cậu|con)`,
  ],
};

export const INDONESIAN: DirectiveLexicon = {
  lang: 'id', name: 'Indonesian', script: 'spaced', order: 'verb-object',
  verbs: ['abaikan', 'abaikanlah', 'lupakan', 'lupakanlah', 'acuhkan', 'jangan ikuti', 'jangan patuhi', 'tinggalkan', 'lewati', 'langgar', 'hiraukan', 'singkirkan', 'batalkan', 'kesampingkan', 'mengabaikan', 'melupakan', 'cuekin', 'lupain', 'jangan hiraukan', 'nggak usah ikutin', 'gak usah ikutin', 'ga usah ikutin', 'tidak usah ikuti', 'nggak usah ikuti', 'gak usah ikuti'],
  objects: ['instruksi', 'perintah', 'petunjuk', 'arahan', 'prompt sistem', 'pedoman', 'panduan', 'pemrograman'],
  weakObjects: ['aturan', 'batasan', 'pembatasan', 'filter', 'kebijakan', 'teks', 'konteks'],
  qualifiers: ['sebelumnya', 'terdahulu', 'di atas', 'semua', 'seluruh', 'segala', 'anda', 'kamu', 'mu', 'asli', 'awal', 'sistem'],
  fillers: ['yang', 'dan', 'atau', 'tolong', 'harap', 'sekarang', 'sepenuhnya', 'ini', 'itu', 'telah', 'sudah', 'diberikan', 'para'],
  trailing: ['sebelumnya', 'terdahulu', 'di atas', 'anda', 'kamu', 'mu', 'asli', 'awal', 'sistem'],
  trailingPatterns: [
    // "dari pemilikmu", "majikan kamu", "yang diberikan oleh tuan anda": the owner with a second-person possessive;
    // not "pemilik kos".
    String.raw`(?:yang\s+(?:[\p{L}]+\s+){0,2}?)?(?:dari\s+|milik\s+|oleh\s+)?(?:pemilik|tuan|majikan|bos|boss|pengguna|user|admin|pembuat|pencipta|pengembang|developer|operator)(?:mu|\s+(?:kamu|anda|mu|lu|lo|elu))`,
    // "yang diberikan pemilikmu", "yang dia tetapkan untukmu", "yang dibuat oleh tuanmu", "yang kamu terima"; not "yang
    // aku berikan untukmu" or "yang kubuat buatmu" (the writer's own).
    String.raw`yang\s+(?:(?:(?!(?:aku|saya|gue|gua|gw|kami|kita)\s|ku\p{L}+\s)[\p{L}]+\s+){0,3}?(?:kepadamu|padamu|untukmu|buatmu|ke\s*kamu|kepada\s+(?:kamu|anda)|untuk\s+(?:kamu|anda)|buat\s+(?:kamu|anda|lu|lo))|(?:kamu|anda)\s+(?:terima|dapat|dapatkan|punya))`,
  ],
};
