// What a final answer says, for scoring: models explain before they answer, so the scorer looks for the answer the
// task asked them to mark ("Answer: …", see task-text.ts), then for a LaTeX \boxed{…}, and only then takes the
// reply itself (or its last line). Multiple choice accepts the letter or the text of exactly one choice.

import { normalizeAnswer } from './normalize';

/** The marked answer of a reply: after the last "Answer:" (or "Final answer:"), else the last \boxed{…}. */
export function markedAnswer(text: string): string | null {
  const marks = [...text.matchAll(/(?:^|[^\p{L}\p{N}])(?:final\s+)?answer[*_]*\s*(?:is\s*)?[:：]\s*(.+)/giu)];
  const last = marks[marks.length - 1]?.[1];
  if (last !== undefined && stripEmphasis(last)) return stripEmphasis(last);
  const boxed = [...text.matchAll(/\\boxed\{([^{}]*(?:\{[^{}]*\}[^{}]*)*)\}/g)];
  const box = boxed[boxed.length - 1]?.[1]?.trim();
  return box ? box : null;
}

/** Markdown emphasis and code marks around an answer (`**Paris**`, `` `42` ``) are not part of it. */
function stripEmphasis(text: string): string {
  return text.trim().replace(/^[*_`\s]+|[*_`\s]+$/g, '').trim();
}

function lastLine(text: string): string {
  const lines = text.split('\n').map((l) => l.trim()).filter(Boolean);
  return lines[lines.length - 1] ?? '';
}

/**
 * The short answers a reply may be read as, best first: the marked answer alone when there is one (a model that
 * marked its answer is held to it), else the whole reply and its last line.
 */
export function answerCandidates(text: string): string[] {
  const marked = markedAnswer(text);
  if (marked !== null) return [marked];
  const whole = text.trim();
  const last = lastLine(whole);
  return last && last !== whole ? [whole, last] : whole ? [whole] : [];
}

export const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** "B", "(B)", "B.", "**B**", any case when it stands alone; "B. Paris", "(B) Paris" (upper case) before the text. */
function leadingLetter(text: string, count: number): string | null {
  const t = text.trim();
  // A lowercase letter only when it is all there is: "a prime number" does not choose A.
  const m = /^[*_`(\s]*([A-Za-z])[)*_`.:\s]*$/.exec(t) ?? /^[*_`\s]*\(?([A-Z])(?:[.):]|\*\*)(?:\s|$)/.exec(t);
  if (!m) return null;
  const letter = m[1].toUpperCase();
  return LETTERS.indexOf(letter) < count ? letter : null;
}

/** The one choice whose text the reply names (a choice contained in a longer named choice does not count). */
function namedChoice(text: string, choices: readonly string[]): string | null {
  const said = ` ${normalizeAnswer(text)} `;
  const named = choices.map((c, i) => ({ i, n: normalizeAnswer(c) })).filter((c) => c.n && said.includes(` ${c.n} `));
  const maximal = named.filter((c) => !named.some((o) => o !== c && o.n.length > c.n.length && ` ${o.n} `.includes(` ${c.n} `)));
  return maximal.length === 1 ? LETTERS[maximal[0].i] : null;
}

/** The letter a reply chose, or null when it chose none (or several). */
export function extractChoice(text: string, choices: readonly string[]): string | null {
  const marked = markedAnswer(text);
  const sources = marked !== null ? [marked] : [text.trim(), lastLine(text)];
  for (const source of sources) {
    const letter = leadingLetter(source, choices.length);
    if (letter) return letter;
  }
  // "The answer is (B)" without a colon, the common unmarked form.
  const spoken = [...text.matchAll(/answer\s+is\s+\(?([A-Z])\)?(?![\p{L}\p{N}])/gu)].map((m) => m[1]).filter((l) => LETTERS.indexOf(l) < choices.length);
  if (marked === null && spoken.length) return spoken[spoken.length - 1];
  for (const source of sources) {
    const byText = namedChoice(source, choices);
    if (byText) return byText;
  }
  return null;
}
