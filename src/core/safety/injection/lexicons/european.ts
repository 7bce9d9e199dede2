import type { DirectiveLexicon } from './types.js';

/**
 * European languages, one table each. Verbs are listed in the imperative forms an order takes (familiar and
 * polite) and as infinitives; stems (`*`) cover inflected adjectives ("vorherigen", "предыдущие").
 */
const spaced = { script: 'spaced', order: 'verb-object' } as const;

export const SPANISH: DirectiveLexicon = {
  ...spaced, lang: 'es', name: 'Spanish',
  verbs: ['ignora', 'ignore', 'ignorar', 'ignoren', 'olvida', 'olvide', 'olvidar', 'olviden', 'descarta', 'descarte', 'omite', 'omita', 'haz caso omiso de', 'no sigas', 'no siga', 'deja de seguir', 'desobedece', 'salta', 'sáltate', 'anula', 'anule', 'elude', 'evita', 'pasa por alto', 'prescinde de', 'abandona'],
  objects: ['instrucciones', 'instrucción', 'indicaciones', 'directrices', 'directivas', 'prompt del sistema', 'mensaje del sistema', 'programación', 'pautas', 'salvaguardas', 'filtros de seguridad', 'normas de seguridad'],
  weakObjects: ['reglas', 'normas', 'restricciones', 'límites', 'filtros', 'políticas', 'órdenes', 'comandos', 'prompt', 'texto', 'contexto'],
  qualifiers: ['anteriores', 'previas', 'previos', 'originales', 'iniciales', 'del sistema', 'de arriba', 'tus', 'sus', 'vuestras', 'todas', 'todos', 'cualquier', 'anterior', 'previa', 'tu', 'su', 'de seguridad'],
  fillers: ['las', 'los', 'la', 'el', 'lo', 'de', 'que', 'te', 'se', 'han', 'dado', 'dieron', 'por', 'favor', 'completamente', 'ahora', 'mismas', 'demás', 'y', 'e', 'o', 'estas', 'esas', 'aquellas'],
  trailing: ['anteriores', 'previas', 'de arriba', 'del sistema', 'que te dieron', 'que recibiste', 'hasta ahora'],
};

export const FRENCH: DirectiveLexicon = {
  ...spaced, lang: 'fr', name: 'French',
  verbs: ['ignore', 'ignorez', 'ignorer', 'oublie', 'oubliez', 'oublier', 'ne tiens pas compte de', 'ne tenez pas compte de', 'ne tiens pas compte des', 'ne tenez pas compte des', 'fais abstraction de', 'faites abstraction de', 'fais abstraction des', 'faites abstraction des', 'abandonne', 'abandonnez', 'contourne', 'contournez', "n'obéis pas à", "n'obéis plus à", 'ne suis plus', 'ne suivez plus', 'ne respecte plus', 'ne respectez plus', 'écarte', 'écartez', 'annule', 'annulez', 'passe outre', 'passez outre'],
  objects: ['instructions', 'consignes', 'directives', 'prompt système', 'message système', 'programmation', 'garde-fous', 'lignes directrices'],
  weakObjects: ['règles', 'restrictions', 'limites', 'filtres', 'politiques', 'ordres', 'commandes', 'prompt', 'texte', 'contexte', 'contraintes'],
  qualifiers: ['précédentes', 'précédents', 'antérieures', 'initiales', 'originales', 'du système', 'ci-dessus', 'tes', 'vos', 'toutes', 'tous', 'ta', 'votre', 'ton', 'de sécurité', "qu'on t'a données"],
  fillers: ['les', 'la', 'le', 'l', 'des', 'de', 'du', 'ces', 'et', 'ou', 's’il', "s'il", 'te', 'vous', 'plaît', 'complètement', 'maintenant', 'simplement', 'autres'],
  trailing: ['précédentes', 'ci-dessus', 'du système', "qu'on t'a données", 'reçues', "jusqu'ici"],
};

export const GERMAN: DirectiveLexicon = {
  ...spaced, lang: 'de', name: 'German',
  verbs: ['ignoriere', 'ignorier', 'ignorieren', 'ignoriert', 'vergiss', 'vergessen', 'vergesst', 'missachte', 'missachten', 'übergehe', 'umgehe', 'umgehen', 'verwirf', 'verwerfen', 'überspringe', 'befolge nicht', 'befolge keine', 'halte dich nicht an', 'setze außer kraft', 'hebe auf'],
  objects: ['anweisungen', 'anweisung', 'instruktionen', 'systemprompt', 'system-prompt', 'systemanweisungen', 'vorgaben', 'richtlinien', 'programmierung', 'sicherheitsrichtlinien', 'schutzmaßnahmen', 'sicherheitsregeln'],
  weakObjects: ['regeln', 'befehle', 'einschränkungen', 'beschränkungen', 'grenzen', 'filter', 'prompt', 'text', 'kontext', 'vorschriften'],
  qualifiers: ['vorherige*', 'bisherige*', 'vorige*', 'frühere*', 'obige*', 'ursprüngliche*', 'vorangegangene*', 'deine*', 'ihre*', 'eure*', 'alle', 'sämtliche*', 'jegliche*', 'system*'],
  fillers: ['die', 'der', 'den', 'das', 'dem', 'bitte', 'einfach', 'jetzt', 'komplett', 'völlig', 'und', 'oder', 'gegebenen', 'erhaltenen', 'ganzen', 'diese', 'all', 'sie', 'du'],
  trailing: ['von oben', 'oben', 'bisher', 'die du erhalten hast'],
};

export const ITALIAN: DirectiveLexicon = {
  ...spaced, lang: 'it', name: 'Italian',
  verbs: ['ignora', 'ignori', 'ignorate', 'ignorare', 'dimentica', 'dimentichi', 'dimenticate', 'dimenticare', 'non seguire', 'non rispettare', 'trascura', 'tralascia', 'scarta', 'aggira', 'salta', 'annulla', 'non tenere conto delle', 'non tenere conto di'],
  objects: ['istruzioni', 'istruzione', 'direttive', 'prompt di sistema', 'messaggio di sistema', 'programmazione', 'linee guida', 'indicazioni'],
  weakObjects: ['regole', 'restrizioni', 'limiti', 'filtri', 'politiche', 'ordini', 'comandi', 'prompt', 'testo', 'contesto', 'vincoli'],
  qualifiers: ['precedenti', 'originali', 'iniziali', 'di sistema', 'sopra', 'tue', 'tuoi', 'sue', 'vostre', 'tutte', 'tutti', 'qualsiasi', 'di sicurezza'],
  fillers: ['le', 'la', 'il', 'i', 'gli', 'lo', 'l', 'delle', 'dei', 'di', 'che', 'ti', 'sono', 'state', 'date', 'per', 'favore', 'completamente', 'ora', 'e', 'o', 'queste'],
  trailing: ['precedenti', 'di sopra', 'qui sopra', 'che ti sono state date', 'ricevute'],
};

export const PORTUGUESE: DirectiveLexicon = {
  ...spaced, lang: 'pt', name: 'Portuguese',
  verbs: ['ignore', 'ignora', 'ignorar', 'ignorem', 'esqueça', 'esquece', 'esquecer', 'desconsidere', 'desconsidera', 'descarte', 'descarta', 'não siga', 'não sigas', 'deixe de seguir', 'pare de seguir', 'contorne', 'burle', 'pule', 'salte', 'anule', 'abandone'],
  objects: ['instruções', 'instrução', 'diretrizes', 'diretivas', 'prompt do sistema', 'mensagem do sistema', 'programação', 'orientações', 'salvaguardas'],
  weakObjects: ['regras', 'restrições', 'limites', 'filtros', 'políticas', 'ordens', 'comandos', 'prompt', 'texto', 'contexto', 'normas'],
  qualifiers: ['anteriores', 'prévias', 'originais', 'iniciais', 'do sistema', 'acima', 'suas', 'seus', 'tuas', 'teus', 'todas', 'todos', 'quaisquer', 'de segurança', 'sua', 'seu'],
  fillers: ['as', 'os', 'a', 'o', 'de', 'das', 'dos', 'que', 'te', 'lhe', 'foram', 'dadas', 'por', 'favor', 'completamente', 'agora', 'e', 'ou', 'estas', 'essas', 'você', 'recebeu'],
  trailing: ['anteriores', 'acima', 'do sistema', 'que você recebeu', 'que te foram dadas', 'até agora'],
};

export const DUTCH: DirectiveLexicon = {
  ...spaced, lang: 'nl', name: 'Dutch',
  verbs: ['negeer', 'negeren', 'vergeet', 'vergeten', 'omzeil', 'omzeilen', 'sla over', 'volg niet', 'gooi weg', 'laat varen', 'houd je niet aan', 'hou je niet aan', 'schend', 'overschrijf', 'passeer'],
  objects: ['instructies', 'instructie', 'aanwijzingen', 'systeemprompt', 'systeembericht', 'richtlijnen', 'programmering', 'veiligheidsregels'],
  weakObjects: ['regels', 'beperkingen', 'grenzen', 'filters', 'beleid', 'opdrachten', 'commando', 'prompt', 'tekst', 'context'],
  qualifiers: ['vorige', 'eerdere', 'voorgaande', 'bovenstaande', 'oorspronkelijke', 'originele', 'je', 'jouw', 'uw', 'alle', 'systeem', 'al'],
  fillers: ['de', 'het', 'een', 'die', 'dat', 'alsjeblieft', 'gewoon', 'nu', 'volledig', 'en', 'of', 'deze', 'gegeven', 'ontvangen'],
  trailing: ['hierboven', 'van hierboven', 'tot nu toe', 'die je hebt gekregen'],
};

export const SWEDISH: DirectiveLexicon = {
  ...spaced, lang: 'sv', name: 'Swedish',
  verbs: ['ignorera', 'strunta i', 'glöm', 'bortse från', 'förbigå', 'kringgå', 'hoppa över', 'följ inte', 'släng', 'överskrid', 'åsidosätt'],
  objects: ['instruktioner', 'instruktionerna', 'instruktion', 'direktiv', 'systemprompt', 'systemprompten', 'riktlinjer', 'riktlinjerna', 'programmering', 'säkerhetsregler'],
  weakObjects: ['regler', 'reglerna', 'begränsningar', 'begränsningarna', 'gränser', 'filter', 'policyer', 'order', 'kommandon', 'prompt', 'text', 'kontext'],
  qualifiers: ['tidigare', 'föregående', 'ovanstående', 'ursprungliga', 'dina', 'din', 'ditt', 'era', 'alla', 'system'],
  fillers: ['de', 'den', 'det', 'en', 'ett', 'snälla', 'bara', 'nu', 'helt', 'och', 'eller', 'dessa', 'givna'],
  trailing: ['ovan', 'hittills', 'du har fått'],
};

export const POLISH: DirectiveLexicon = {
  ...spaced, lang: 'pl', name: 'Polish',
  verbs: ['zignoruj', 'zignorujcie', 'ignoruj', 'ignorujcie', 'zapomnij', 'zapomnijcie', 'pomiń', 'pomijaj', 'nie przestrzegaj', 'nie stosuj się do', 'odrzuć', 'porzuć', 'omiń', 'obejdź', 'lekceważ', 'zlekceważ'],
  objects: ['instrukcje', 'instrukcji', 'instrukcjach', 'polecenia', 'poleceń', 'prompt systemowy', 'wytyczne', 'wytycznych', 'dyrektywy', 'programowanie', 'zabezpieczenia'],
  weakObjects: ['zasady', 'zasad', 'reguły', 'reguł', 'ograniczenia', 'ograniczeń', 'filtry', 'komendy', 'prompt', 'tekst', 'kontekst'],
  qualifiers: ['poprzedni*', 'wcześniejsz*', 'powyższ*', 'pierwotn*', 'oryginaln*', 'swoje', 'swoich', 'twoje', 'twoich', 'wasze', 'wszystkie', 'wszystkich', 'systemow*', 'dotychczasow*'],
  fillers: ['i', 'oraz', 'lub', 'proszę', 'teraz', 'po prostu', 'całkowicie', 'te', 'tych', 'o', 'otrzymane'],
  trailing: ['powyżej', 'z góry', 'dotychczas', 'które otrzymałeś'],
};

export const RUSSIAN: DirectiveLexicon = {
  ...spaced, lang: 'ru', name: 'Russian',
  verbs: ['игнорируй', 'игнорируйте', 'проигнорируй', 'проигнорируйте', 'игнорировать', 'забудь', 'забудьте', 'забыть', 'не обращай внимания на', 'не обращайте внимания на', 'не следуй', 'не следуйте', 'не выполняй', 'отбрось', 'отбросьте', 'отмени', 'отмените', 'обойди', 'обойдите', 'пропусти', 'пренебреги', 'откажись от', 'нарушь'],
  objects: ['инструкции', 'инструкций', 'инструкциям', 'указания', 'указаний', 'системный промпт', 'системную подсказку', 'системное сообщение', 'директивы', 'установки', 'программирование', 'ограничения безопасности'],
  weakObjects: ['правила', 'правил', 'ограничения', 'ограничений', 'фильтры', 'команды', 'промпт', 'текст', 'контекст', 'запреты', 'политики'],
  qualifiers: ['предыдущ*', 'прежн*', 'прошл*', 'предшествующ*', 'вышеуказанн*', 'вышеизложенн*', 'исходн*', 'первоначальн*', 'свои', 'своих', 'твои', 'твоих', 'ваши', 'ваших', 'все', 'всех', 'любые', 'системн*'],
  fillers: ['и', 'или', 'пожалуйста', 'теперь', 'просто', 'полностью', 'эти', 'этих', 'данные', 'полученные', 'тебе', 'вам'],
  trailing: ['выше', 'сверху', 'до этого', 'которые тебе дали', 'которые ты получил'],
};

export const UKRAINIAN: DirectiveLexicon = {
  ...spaced, lang: 'uk', name: 'Ukrainian',
  verbs: ['ігноруй', 'ігноруйте', 'проігноруй', 'проігноруйте', 'забудь', 'забудьте', 'не зважай на', 'не зважайте на', 'не дотримуйся', 'не виконуй', 'відкинь', 'відкиньте', 'скасуй', 'обійди', 'пропусти', 'знехтуй', 'порушуй'],
  objects: ['інструкції', 'інструкцій', 'вказівки', 'вказівок', 'системний промпт', 'системне повідомлення', 'директиви', 'настанови', 'програмування'],
  weakObjects: ['правила', 'правил', 'обмеження', 'фільтри', 'команди', 'промпт', 'текст', 'контекст', 'заборони'],
  qualifiers: ['попередн*', 'минул*', 'вищезазначен*', 'початков*', 'вихідн*', 'свої', 'своїх', 'твої', 'твоїх', 'ваші', 'всі', 'усі', 'будь-які', 'системн*'],
  fillers: ['і', 'й', 'та', 'або', 'будь ласка', 'тепер', 'просто', 'повністю', 'ці', 'цих', 'отримані', 'тобі'],
  trailing: ['вище', 'до цього', 'які тобі дали'],
};
