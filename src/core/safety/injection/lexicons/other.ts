import type { DirectiveLexicon } from './types.js';

/**
 * Arabic, Hindi, Persian, Turkish, Vietnamese and Indonesian. Hindi, Persian and Turkish put the verb last
 * ("पिछले निर्देशों को अनदेखा करें", "دستورالعمل‌های قبلی را نادیده بگیر", "önceki talimatları yok say");
 * Turkish suffixes are covered by stems.
 */
export const ARABIC: DirectiveLexicon = {
  lang: 'ar', name: 'Arabic', script: 'spaced', order: 'verb-object',
  verbs: ['تجاهل', 'تجاهلي', 'تجاهلوا', 'انس', 'انسى', 'انسي', 'اترك', 'تخط', 'تخطى', 'تخطي', 'لا تتبع', 'لا تلتزم ب', 'لا تلتزم', 'اهمل', 'أهمل', 'تجاوز', 'ألغ', 'الغ', 'تغاض عن'],
  objects: ['التعليمات', 'تعليمات', 'تعليماتك', 'الأوامر', 'أوامرك', 'التوجيهات', 'توجيهاتك', 'موجه النظام', 'رسالة النظام', 'الإرشادات', 'إرشاداتك', 'برمجتك'],
  weakObjects: ['القواعد', 'قواعدك', 'القيود', 'قيودك', 'المرشحات', 'السياسات', 'النص', 'السياق'],
  qualifiers: ['السابقة', 'السابق', 'الأصلية', 'أعلاه', 'جميع', 'كل', 'كافة', 'النظام', 'الأولية'],
  fillers: ['من', 'و', 'أو', 'فضلا', 'رجاء', 'الآن', 'تماما', 'هذه'],
  trailing: ['السابقة', 'أعلاه', 'الأصلية'],
};

export const HINDI: DirectiveLexicon = {
  lang: 'hi', name: 'Hindi', script: 'spaced', order: 'object-verb',
  verbs: ['अनदेखा', 'नज़रअंदाज़', 'नजरअंदाज', 'नज़रअंदाज', 'भूल', 'भूलो', 'भूल जाओ', 'भूल जाएं', 'छोड़', 'छोड़ दो', 'मत मानो', 'न मानें', 'पालन मत करो', 'पालन न करें', 'दरकिनार', 'रद्द'],
  objects: ['निर्देश', 'निर्देशों', 'सिस्टम प्रॉम्प्ट', 'आदेश', 'आदेशों', 'दिशानिर्देश', 'दिशानिर्देशों', 'हिदायतें'],
  weakObjects: ['नियम', 'नियमों', 'प्रतिबंध', 'प्रतिबंधों', 'सीमाएं', 'सीमाओं', 'फ़िल्टर', 'संदर्भ'],
  qualifiers: ['पिछले', 'पिछली', 'पहले', 'ऊपर', 'ऊपर के', 'सभी', 'सारे', 'अपने', 'तुम्हारे', 'आपके', 'मूल', 'सिस्टम'],
  fillers: ['को', 'के', 'की', 'का', 'और', 'या', 'सब', 'दिए', 'गए', 'कृपया', 'अब', 'पूरी', 'तरह', 'से'],
};

export const PERSIAN: DirectiveLexicon = {
  lang: 'fa', name: 'Persian', script: 'spaced', order: 'object-verb',
  verbs: ['نادیده بگیر', 'نادیده بگیرید', 'نادیده', 'فراموش کن', 'فراموش کنید', 'فراموش', 'رها کن', 'کنار بگذار', 'دور بزن', 'پیروی نکن', 'اطاعت نکن', 'لغو کن'],
  objects: ['دستورالعمل‌ها', 'دستورالعمل\u200cهای', 'دستورالعمل‌های', 'دستورالعملها', 'دستورالعمل', 'دستورات', 'دستورها', 'پرامپت سیستم', 'رهنمودها', 'دستور'],
  weakObjects: ['قوانین', 'قواعد', 'محدودیت‌ها', 'محدودیتها', 'فیلترها', 'متن'],
  qualifiers: ['قبلی', 'پیشین', 'بالا', 'همه', 'تمام', 'اصلی', 'سیستم', 'خود', 'خودت', 'اولیه'],
  fillers: ['را', 'و', 'یا', 'لطفا', 'لطفاً', 'اکنون', 'حالا', 'کاملا', 'این', 'های', 'ی'],
};

export const TURKISH: DirectiveLexicon = {
  lang: 'tr', name: 'Turkish', script: 'spaced', order: 'object-verb',
  verbs: ['yok say*', 'görmezden gel*', 'unut*', 'göz ardı et*', 'dikkate alma*', 'uyma*', 'atla*', 'boşver*', 'boş ver*', 'aş*', 'çiğne*', 'iptal et*', 'hiçe say*'],
  objects: ['talimat*', 'yönerge*', 'sistem istemi*', 'sistem komut*', 'direktif*', 'programlama*'],
  weakObjects: ['kural*', 'kısıtlama*', 'sınırlama*', 'filtre*', 'komut*', 'emir*', 'politika*', 'metin*', 'bağlam*'],
  qualifiers: ['önceki', 'önceden', 'yukarıdaki', 'tüm', 'bütün', 'her', 'orijinal', 'ilk', 'senin', 'sistem', 'mevcut', 'eski', 'verilen', 'sana'],
  fillers: ['ve', 'veya', 'ya da', 'lütfen', 'şimdi', 'tamamen', 'bu', 'şu', 'da', 'de', 'hepsini'],
};

export const VIETNAMESE: DirectiveLexicon = {
  lang: 'vi', name: 'Vietnamese', script: 'spaced', order: 'verb-object',
  verbs: ['bỏ qua', 'phớt lờ', 'lờ đi', 'quên', 'quên đi', 'không tuân theo', 'đừng tuân theo', 'đừng làm theo', 'không làm theo', 'vượt qua', 'gạt bỏ', 'hủy bỏ', 'loại bỏ'],
  objects: ['hướng dẫn', 'chỉ dẫn', 'chỉ thị', 'lời nhắc hệ thống', 'mệnh lệnh', 'nguyên tắc'],
  weakObjects: ['quy tắc', 'luật', 'giới hạn', 'hạn chế', 'bộ lọc', 'chính sách', 'lệnh', 'văn bản', 'ngữ cảnh'],
  qualifiers: ['trước', 'trước đó', 'trước đây', 'ở trên', 'phía trên', 'tất cả', 'mọi', 'của bạn', 'ban đầu', 'gốc', 'hệ thống', 'hiện tại'],
  fillers: ['các', 'những', 'mọi', 'tất', 'cả', 'và', 'hoặc', 'hãy', 'vui lòng', 'làm ơn', 'bây giờ', 'hoàn toàn', 'này', 'đó', 'đã', 'được', 'đưa', 'ra'],
  trailing: ['trước đó', 'trước đây', 'ở trên', 'phía trên', 'của bạn', 'ban đầu', 'hệ thống'],
};

export const INDONESIAN: DirectiveLexicon = {
  lang: 'id', name: 'Indonesian', script: 'spaced', order: 'verb-object',
  verbs: ['abaikan', 'lupakan', 'acuhkan', 'jangan ikuti', 'jangan patuhi', 'tinggalkan', 'lewati', 'langgar', 'hiraukan', 'singkirkan', 'batalkan', 'kesampingkan', 'mengabaikan', 'melupakan'],
  objects: ['instruksi', 'perintah', 'petunjuk', 'arahan', 'prompt sistem', 'pedoman', 'panduan', 'pemrograman'],
  weakObjects: ['aturan', 'batasan', 'pembatasan', 'filter', 'kebijakan', 'teks', 'konteks'],
  qualifiers: ['sebelumnya', 'terdahulu', 'di atas', 'semua', 'seluruh', 'segala', 'anda', 'kamu', 'mu', 'asli', 'awal', 'sistem'],
  fillers: ['yang', 'dan', 'atau', 'tolong', 'harap', 'sekarang', 'sepenuhnya', 'ini', 'itu', 'telah', 'sudah', 'diberikan', 'para'],
  trailing: ['sebelumnya', 'terdahulu', 'di atas', 'anda', 'kamu', 'mu', 'asli', 'awal', 'sistem'],
};
