/**
 * English irregular verb forms. The porter stemmer maps "deploying" to "deployed" but not "felt" to
 * "feel" or "went" to "go", and a question asked in one tense ("How did she feel?") is often answered
 * in another ("I felt tiny"). Each form of a verb finds the others.
 */
const IRREGULAR_VERBS = `
  be was were been | become became | begin began begun | break broke broken | bring brought |
  build built | buy bought | catch caught | choose chose chosen | come came | cut | do did done |
  draw drew drawn | drink drank drunk | drive drove driven | eat ate eaten | fall fell fallen |
  feed fed | feel felt | fight fought | find found | fly flew flown | forget forgot forgotten |
  get got gotten | give gave given | go went gone | grow grew grown | have had | hear heard |
  hide hid hidden | hold held | keep kept | know knew known | lead led | learn learnt | leave left |
  lend lent | lose lost | make made | mean meant | meet met | pay paid | put | read | ride rode ridden |
  ring rang rung | rise rose risen | run ran | say said | see saw seen | sell sold | send sent |
  set | shoot shot | show showed shown | sing sang sung | sit sat | sleep slept | speak spoke spoken |
  spend spent | stand stood | steal stole stolen | swim swam swum | take took taken | teach taught |
  tell told | think thought | throw threw thrown | understand understood | wake woke woken |
  wear wore worn | win won | write wrote written`;

const FORMS = new Map<string, string[]>();
for (const group of IRREGULAR_VERBS.split('|')) {
  const forms = group.trim().split(/\s+/u).filter(Boolean);
  for (const form of forms) FORMS.set(form, forms.filter((other) => other !== form));
}

/** The other forms of an irregular verb ("felt" → ["feel"]), or none. */
export function otherVerbForms(word: string): readonly string[] {
  return FORMS.get(word) ?? [];
}
