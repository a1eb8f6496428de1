// The token rules of thumb the budget guard and the estimate share (no dependencies, so the engine can use them
// without depending on the estimate, which builds on the engine's prompts).

/** Characters per token for prompts the server has not counted yet; code and non-English text take more. */
export const CHARS_PER_TOKEN = 4;
/** Output tokens assumed for an answer before the run has seen any. */
export const DEFAULT_ANSWER_TOKENS = 600;
