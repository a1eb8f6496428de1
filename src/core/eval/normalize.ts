// Normalised exact match for short answers, as QA benchmarks score them (SQuAD's normalisation, plus numbers):
// case, Unicode compatibility forms, punctuation, a leading article and whitespace do not count, and a number is the same
// number however it is written ("1,000", "1000", "1000.0", "1e3"). Anything else must match exactly: a scorer that
// guesses (substrings, edit distance) makes the team look better or worse than it is. Unlike SQuAD, only a leading
// article is dropped: "vitamin a" and "vitamin b" must stay apart.

/** A decimal number as written: optional sign, thousands separators or plain digits, fraction, exponent. */
const NUMBER = /(?<![\p{L}\p{N}.])([-+\u2212]?)(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?(?:[eE]([-+]?\d+))?(?![\p{L}\p{N}]|\.\d)/gu;

/** The one spelling of a number: no separators, no leading zeros, no trailing fraction zeros, no "+", no "-0". */
export function canonicalNumber(sign: string, whole: string, fraction = '', exponent?: string): string {
  if (exponent !== undefined) {
    const value = Number(`${whole.replace(/,/g, '')}.${fraction || '0'}e${exponent}`);
    if (!Number.isFinite(value)) return `${whole}${fraction ? `.${fraction}` : ''}e${exponent}`;
    const text = String(value);
    return value === 0 ? '0' : (sign === '-' || sign === '\u2212') ? `-${text}` : text;
  }
  const int = whole.replace(/,/g, '').replace(/^0+(?=\d)/, '');
  const frac = fraction.replace(/0+$/, '');
  const body = frac ? `${int}.${frac}` : int;
  const zero = /^0(\.0*)?$/.test(body);
  return !zero && (sign === '-' || sign === '\u2212') ? `-${body}` : body;
}

const ARTICLES = new Set(['a', 'an', 'the']);

/**
 * Lower case, numbers canonical, punctuation and symbols dropped (a decimal point and a leading minus belong to
 * their number), a leading a/an/the dropped, words joined by single spaces.
 */
export function normalizeAnswer(text: string): string {
  const lowered = text.normalize('NFKC').toLowerCase();
  const numbered = lowered.replace(NUMBER, (_m, sign: string, whole: string, fraction: string | undefined, exponent: string | undefined) => ` ${canonicalNumber(sign, whole, fraction, exponent)} `);
  const tokens: string[] = numbered.match(/(?<![\p{L}\p{N}])-?\d+(?:\.\d+)?(?![\p{L}\p{N}])|[\p{L}\p{N}\p{M}]+/gu) ?? [];
  // Only a leading article goes ("The Eiffel Tower"): dropping every one would make "vitamin a" equal "vitamin b".
  return (tokens.length > 1 && ARTICLES.has(tokens[0]) ? tokens.slice(1) : tokens).join(' ');
}
