// A failed agent's error in plain words for the views (the vote viewer and the chat), the engine's own wording kept
// for the log. The engine reports a model that never made a coordination call with the correction it sent it; a
// user needs to hear what that means: the model does not seem to call tools.

/** The engine's corrections start like this (engine/prompts.ts ENFORCEMENT_MESSAGE and its vote-only form). */
const CORRECTION = 'Finish your work above by making a tool call of';
const NO_CALL_AFTER = /^no valid vote or new_answer call after (\d+) attempts \(last: ([\s\S]*)\)$/;
const SILENT = /^the model replied (\d+) time\(s\) without calling new_answer or vote/;

export const NO_TOOL_CALLS = 'the model never called the tools MassGen needs (new_answer or vote): it may not support tool calling, so pick a model that does';

export function failureInWords(error: string): string {
  if (SILENT.test(error)) return NO_TOOL_CALLS;
  const m = NO_CALL_AFTER.exec(error);
  if (!m) return error;
  const [, attempts, last] = m;
  if (last.startsWith(CORRECTION)) return NO_TOOL_CALLS;
  return `its answer or vote was refused ${attempts} times (last: ${last})`;
}

/** A run's error ("Every agent failed." then one "  id: error" line per agent) with each failure in plain words. */
export function runErrorInWords(error: string): string {
  return error
    .split('\n')
    .map((line) => {
      const m = /^(\s+[^\s:]+: )(.*)$/.exec(line);
      return m ? `${m[1]}${failureInWords(m[2])}` : failureInWords(line);
    })
    .join('\n');
}
