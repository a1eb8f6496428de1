// The coordination tools' names, as upstream spells them (prompts and users rely on them). A module of its own, with
// no imports, so the reducer and the webview can tell coordination calls from other tools without the validator.

export const NEW_ANSWER = 'new_answer';
export const VOTE = 'vote';
export const COORDINATION_TOOLS: ReadonlySet<string> = new Set([NEW_ANSWER, VOTE]);
/** Ours: reads an answer that was shortened to fit the model's context window. */
export const READ_ANSWER = 'read_answer';
