// When "Answer now" can end a run: while the agents coordinate, once some answer exists. Before the first answer it
// would end the run with no answer at all (Cancel says that plainly), and once the agents are done it would only
// abort the final answer being written.

import type { RunState } from '../../core/engine/run-state';

/** Why Answer now cannot end this run now, in words; undefined when it can. */
export function answerNowRefusal(state: Pick<RunState, 'phase' | 'answers'>): string | undefined {
  if (state.phase === 'presenting' || state.phase === 'done') return 'the agents are done: the final answer is being written';
  if (state.answers.length === 0) return 'no agent has answered yet: wait for a first answer, or cancel the run';
  return undefined;
}
