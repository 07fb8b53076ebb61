// The one tokeniser of the server's searches (find_commands, search_docs): lower case, templates, numbers and stop
// words out, a few two-word spellings folded into one, split on anything not a letter or digit, stemmed.

/** A query word at least this long also matches the terms it begins (`deploy` finds `deployment`). */
export const MIN_PREFIX_LENGTH = 4

const STOP_WORDS = new Set(
  ('a about all am an and any are as at be been by can could do does for from has have how i if in into is it its me ' +
    'more most my of on one or other our please should so some than that the their them then there these this those ' +
    'to us want was we what when where which who whose why will with would you your').split(' '),
)

/** Two-word spellings of one idea, folded before splitting so that `add-on` does not read as `add`. */
const PHRASES: [RegExp, string][] = [
  [/\badd[\s-]?ons?\b/g, 'addon'],
  [/\b(?:log|sign)[\s-]?in\b/g, 'login'],
  [/\b(?:log|sign)[\s-]?out\b/g, 'logout'],
  [/\broll[\s-]?back\b/g, 'rollback'],
  [/\bset[\s-]?up\b/g, 'setup'],
  [/\bclean[\s-]?up\b/g, 'cleanup'],
  [/\bwho[\s-]?am[\s-]?i\b/g, 'whoami'],
  // "Which account am I logged in as": who one is, not a login to make nor the logs to read.
  [/\blogged[\s-]?in(?:\s+(?:as|to|with))?\b/g, 'whoami'],
  [/\bget[\s-]rid[\s-]of\b/g, 'remove'],
  [/\bone[\s-]off\b/g, 'oneoff'],
]

/** Words a suffix stripper cannot bring together. */
const IRREGULAR: Record<string, string> = {daily: 'day', information: 'info', monthly: 'month', people: 'user', weekly: 'week'}

function undouble(word: string): string {
  return word.length > 3 && word.at(-1) === word.at(-2) && !'lsz'.includes(word.at(-1)!) ? word.slice(0, -1) : word
}

/** A small suffix stripper (plurals, -ing, -ed, a final -e), so that create, creates, created and creating meet. */
export function stem(word: string): string {
  if (IRREGULAR[word]) return IRREGULAR[word]
  let w = word
  if (w.length > 4 && /ie[sd]$/.test(w)) w = `${w.slice(0, -3)}y`
  else if (/(?:ss|x|ch|sh|zz)es$/.test(w)) w = w.slice(0, -2)
  else if (w.length > 3 && w.endsWith('s') && !/(?:ss|us|is)$/.test(w)) w = w.slice(0, -1)
  if (w.length > 5 && w.endsWith('ing') && /[aeiouy]/.test(w.slice(0, -3))) w = undouble(w.slice(0, -3))
  else if (w.length > 4 && w.endsWith('ed') && /[aeiouy]/.test(w.slice(0, -2))) w = undouble(w.slice(0, -2))
  if (w.length > 3 && w.endsWith('e')) w = w.slice(0, -1)
  return w
}

/**
 * The words of a text as written, lower case: templates, numbers and stop words out, a few two-word spellings folded
 * into one, split on anything not a letter or digit (any script). What a person would search by; terms() stems them.
 */
export function plainWords(text: string): string[] {
  let lower = text.toLowerCase().replaceAll(/<%.*?%>/g, ' ')
  for (const [pattern, replacement] of PHRASES) lower = lower.replaceAll(pattern, replacement)
  return lower.split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 1 && !/^\p{N}+$/u.test(w) && !STOP_WORDS.has(w))
}

/** Text → normalised terms: its plain words, stemmed. */
export function terms(text: string): string[] {
  return plainWords(text).map((w) => stem(w))
}

/** Whether `term` (of a query) reaches `token` (of a text): the same term, or for a long enough term a prefix of it. */
export function reaches(term: string, token: string): boolean {
  return token === term || (term.length >= MIN_PREFIX_LENGTH && token.startsWith(term))
}
