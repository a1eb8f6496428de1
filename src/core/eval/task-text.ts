// The task every system gets for an item: the same text for the team, each member alone and the baseline, so the
// only difference between them is who answers. Questions ask for a marked final line ("Answer: …"), which the
// scorer reads (extract.ts); without it a correct answer buried in an explanation would be scored by luck.

import type { EvalItem } from './dataset';
import { LETTERS } from './extract';

export function taskText(item: EvalItem): string {
  switch (item.kind) {
    case 'qa':
      return `${item.question.trim()}\n\nGive your reasoning if you need to, then end with a final line of the form "Answer: <your short answer>".`;
    case 'choice':
      return [
        item.question.trim(),
        '',
        ...item.choices.map((c, i) => `${LETTERS[i]}. ${c.trim()}`),
        '',
        `Choose one of ${LETTERS[0]}–${LETTERS[item.choices.length - 1]}. Give your reasoning if you need to, then end with a final line of the form "Answer: <letter>".`,
      ].join('\n');
    case 'code':
      return item.task.trim();
  }
}
