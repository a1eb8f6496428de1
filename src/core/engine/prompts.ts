// Prompt building, kept pure and textual so it can be tested and diffed against upstream's wording, which models
// are tuned on. Labels are the run's one stable mapping: agentK = K-th agent in config order.

import type { Sensitivity } from '../config/types';
import type { AnswerChange, CheckResult } from './events';

export interface BoardEntry {
  /** agentK */
  label: string;
  /** agentK.M */
  versionLabel: string;
  content: string;
  /** In a workspace run: what the answer changed in the agent's copy. */
  change?: AnswerChange;
  /** In a run with checks: their results on this version. */
  checks?: readonly CheckResult[];
  /** The reader's own answer, whose new_answer call is in its conversation: listed by reference, not repeated. */
  own?: boolean;
}

interface Section {
  tag: string;
  priority: number;
  body: string;
}

function priorityName(priority: number): string {
  if (priority <= 4) return 'critical';
  if (priority <= 5) return 'high';
  if (priority <= 10) return 'medium';
  return 'auxiliary';
}

function renderSections(sections: Section[]): string {
  const body = [...sections]
    .sort((a, b) => a.priority - b.priority)
    .map((s) => `<${s.tag} priority="${priorityName(s.priority)}">\n${s.body.trim()}\n</${s.tag}>`)
    .join('\n\n');
  return `<system_prompt>\n\n${body}\n\n</system_prompt>`;
}

const SENSITIVITY: Record<Sensitivity, string> = {
  lenient:
    'Does the best CURRENT ANSWER address the ORIGINAL MESSAGE well?\n\n' +
    'If YES, use the `vote` tool to record your vote and skip the `new_answer` tool.',
  balanced:
    'Does the best CURRENT ANSWER address the ORIGINAL MESSAGE in a comprehensive, accurate, and complete way? ' +
    'Could it be meaningfully improved, or does it have weaknesses, gaps, or better approaches it missed?\n\n' +
    'Only use the `vote` tool if the best answer is strong and complete.',
  strict:
    'Does the best CURRENT ANSWER address ALL aspects of the ORIGINAL MESSAGE, including edge cases? Is it technically ' +
    'accurate, free of significant gaps, and of reference quality?\n\n' +
    'Only use the `vote` tool if the best answer meets high standards of excellence.',
};

const NOVELTY: Record<Sensitivity, string> = {
  lenient: '',
  balanced:
    'IMPORTANT: If you provide a new answer, it must be meaningfully different from the existing answers. ' +
    "Don't just rephrase an existing answer: add substance, fix errors, or take a better approach.",
  strict:
    'CRITICAL: New answers must be SUBSTANTIALLY different from the existing answers, with a new approach or ' +
    'significant improvements. If you cannot provide a truly novel solution, vote instead.',
};

export function formatTimestamp(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

export interface CoordinationPromptInput {
  systemMessage?: string;
  votingSensitivity: Sensitivity;
  noveltyRequirement: Sensitivity;
  now: Date;
  /** The agent has reached its answer cap: only `vote` is offered. */
  voteOnly?: boolean;
  /** Runs with checks: their names, and whether failing a required one keeps an answer from winning. */
  checks?: { names: readonly string[]; gate: boolean };
}

export function buildCoordinationSystemPrompt(input: CoordinationPromptInput): string {
  const sections: Section[] = [];
  if (input.systemMessage?.trim()) {
    sections.push({ tag: 'agent_identity', priority: 1, body: input.systemMessage });
  }
  const coordination = [
    'You are evaluating answers from multiple agents for final response to a message. ' +
      'Different agents may have different builtin tools and capabilities.',
    input.voteOnly ? 'Which CURRENT ANSWER addresses the ORIGINAL MESSAGE best?' : SENSITIVITY[input.votingSensitivity],
    input.voteOnly
      ? 'You have reached the maximum number of new answers you may give. Use the `vote` tool to vote for the best existing answer.'
      : 'Otherwise, digest existing answers, combine their strengths, and do additional work to address their weaknesses, ' +
        'then use the `new_answer` tool to record a better answer to the ORIGINAL MESSAGE.',
    input.voteOnly ? '' : NOVELTY[input.noveltyRequirement],
    input.voteOnly
      ? 'Make sure you actually call `vote` (in tool call format).'
      : 'Make sure you actually call `vote` or `new_answer` (in tool call format).',
    input.checks ? formatChecksRule(input.checks) : '',
    `*Note*: The CURRENT TIME is **${formatTimestamp(input.now)}**.`,
  ].filter(Boolean);
  sections.push({ tag: 'massgen_coordination', priority: 2, body: coordination.join('\n\n') });
  sections.push({
    tag: 'core_behaviors',
    priority: 4,
    body: input.voteOnly
      ? 'Do NOT ask the user for clarification; you will not receive user feedback. Judge the answers on their merits and vote for the best one.'
      : 'Default to action: implement the solution rather than only suggesting it. ' +
        'Do NOT ask the user for clarification; you will not receive user feedback. ' +
        'Your answer must be complete on its own: write the full answer in `new_answer`, not a reference to another answer.',
  });
  return renderSections(sections);
}

export function formatOriginalMessage(task: string): string {
  return `<ORIGINAL MESSAGE> ${task} <END OF ORIGINAL MESSAGE>`;
}

/** Files listed per answer in CURRENT ANSWERS; the rest are counted (peers/agentK/ has them all). */
export const MAX_LISTED_CHANGED_FILES = 30;

/** The diffstat shown beside a workspace answer's text: what it changed, read-only under peers/agentK/. */
export function formatChange(label: string, change: AnswerChange): string {
  if (change.files.length === 0) return `[Changed files: none — ${label}'s copy is as the run started]`;
  const listed = change.files.slice(0, MAX_LISTED_CHANGED_FILES).map((f) => {
    const lines = f.added === null ? 'binary' : `+${f.added} -${f.removed}`;
    return `${f.path} (${f.status === 'modified' ? '' : `${f.status}, `}${lines})`;
  });
  const more = change.files.length - listed.length;
  const rest = more > 0 ? `, and ${more} more` : '';
  return `[Changed files (read them under peers/${label}/): ${listed.join(', ')}${rest}]`;
}

/** Characters of a failing check's output shown with an answer: its end, where test runners report failures. */
export const CHECK_OUTPUT_CHARS = 1500;

const CHECK_WORDS: Record<CheckResult['status'], string> = { passed: 'passed', failed: 'FAILED', timeout: 'TIMED OUT', error: 'could not run', cancelled: 'cancelled' };

function formatChecksRule(checks: { names: readonly string[]; gate: boolean }): string {
  const names = checks.names.map((n) => `\`${n}\``).join(', ');
  return (
    `MassGen runs the project's checks (${names}) on every answer's change, in a clean copy, and shows their results with each CURRENT ANSWER. ` +
    (checks.gate ? 'An answer that fails a required check cannot win while another passes them. ' : '') +
    'Weigh the results: prefer an answer whose checks pass; if your own answer fails one, fix it in a new answer.'
  );
}

/** What the checks said about an answer version: one line, then the end of each failing check's output. */
export function formatChecks(label: string, checks: readonly CheckResult[]): string {
  const summary = checks.map((c) => `${c.name} ${CHECK_WORDS[c.status]}${c.status === 'failed' && c.exitCode !== null ? ` (exit ${c.exitCode})` : ''}${c.required ? '' : ' (optional)'}`);
  const failing = checks
    .filter((c) => c.status !== 'passed' && c.status !== 'cancelled' && c.output.trim())
    .map((c) => `Output of ${c.name} (its end):\n${c.output.length > CHECK_OUTPUT_CHARS ? `…${c.output.slice(-CHECK_OUTPUT_CHARS)}` : c.output}`);
  return [`[Checks on ${label}'s change: ${summary.join('; ')}]`, ...failing].join('\n');
}

function answerExtras(e: BoardEntry): string {
  const change = e.change ? `\n${formatChange(e.label, e.change)}` : '';
  const checks = e.checks?.length ? `\n${formatChecks(e.label, e.checks)}` : '';
  return `${change}${checks}`;
}

function answerBlock(e: BoardEntry): string {
  const content = e.own ? `your own answer ${e.versionLabel}, as in your new_answer call above` : e.content;
  return `<${e.label}> ${content}${answerExtras(e)} <end of ${e.label}>`;
}

/** How the board opens in a prompt, and what it says with nothing on it. */
export const BOARD = '<CURRENT ANSWERS from the agents>';
export const EMPTY_BOARD = '(no answers available yet)';

export function formatCurrentAnswers(entries: BoardEntry[]): string {
  if (entries.length === 0) {
    return `${BOARD}\n${EMPTY_BOARD}\n<END OF CURRENT ANSWERS>`;
  }
  const blocks = entries.map(answerBlock);
  return `${BOARD}\n${blocks.join('\n\n')}\n<END OF CURRENT ANSWERS>`;
}

/** The first user message of an agent's conversation: the task and the board as it stands. */
export function buildInitialUserMessage(task: string, board: BoardEntry[]): string {
  return `${formatOriginalMessage(task)}\n\n${formatCurrentAnswers(board)}`;
}

/**
 * What an agent is told when the board changed since it last looked. Only the changed answers are sent in full
 * (the rest are already in its context), so a conversation grows with the news, not with the whole board again.
 * `voted`: its last turn ended in a vote, which this update makes void (it is told so only then).
 */
export function buildUpdateMessage(changed: BoardEntry[], unchanged: BoardEntry[], { voteOnly, voted }: { voteOnly: boolean; voted: boolean }): string {
  const lines = [
    'UPDATE: While you were working, new answers were provided.',
    '',
    '<NEW ANSWERS>',
    ...changed.map(answerBlock),
    '</NEW ANSWERS>',
  ];
  if (unchanged.length > 0) {
    lines.push('', `Unchanged since you last saw them: ${unchanged.map((e) => e.label).join(', ')}.`);
  }
  lines.push(
    '',
    `The CURRENT ANSWERS are now the latest answer of each agent listed above or earlier.${voted ? ' Your vote before this update was not counted.' : ''}`,
    voteOnly ? 'Proceed: call `vote` for the best current answer.' : 'Proceed: vote for the best current answer with `vote`, or provide a better answer with `new_answer`.',
  );
  return lines.join('\n');
}

/** Added to a compacted prompt: the answers were revised since the agent last looked (and, if it voted, the vote is void). */
export function revisedNote({ revised, voted }: { revised: boolean; voted: boolean }): string {
  const news = revised ? 'Some answers were revised since your last turn' : 'New answers were provided since your last turn';
  return `${news}; the CURRENT ANSWERS above are the latest versions.${voted ? ' Your vote before was not counted.' : ''}`;
}

/** The next turn's message when nothing changed on the board since the agent's last turn. */
export function noNewsMessage(voteOnly: boolean): string {
  return voteOnly
    ? 'No new answers since your last turn. Call `vote` for the best current answer.'
    : 'No new answers since your last turn; the CURRENT ANSWERS are as you last saw them. ' +
        'Vote for the best current answer with `vote`, or provide a better answer with `new_answer`.';
}

/** Told to models that answer in text instead of calling tools (small local models, servers without tool support). */
export const TEXT_TOOL_PROTOCOL =
  'If you cannot call tools, reply with only one JSON object instead, either ' +
  '{"tool_name": "new_answer", "arguments": {"content": "<your complete answer>"}} or ' +
  '{"tool_name": "vote", "arguments": {"agent_id": "agent1", "reason": "<why>"}}.';

/**
 * The tool results a coordination call gets: acknowledgements, and the corrections for a refused call (upstream's
 * wording where upstream has one: models are tuned on it). Each names the fix, so the model can act on it.
 */
export const COORDINATION_RESULTS = {
  answerRecorded: (label: string) => `Your answer was recorded as ${label}.`,
  answerChecked: (label: string, checks: readonly CheckResult[]) =>
    checks.every((c) => c.status === 'passed')
      ? `Your answer was recorded as ${label}; the project's checks passed on it.`
      : `Your answer was recorded as ${label}, but not every check passed on it:\n${formatChecks(label, checks)}\nFix it in a new answer, or vote for an answer whose checks pass.`,
  voteRecorded: (note?: string) => (note ? `Your vote was recorded. ${note}` : 'Your vote was recorded.'),
  voteOvertaken: 'Your vote was not counted: new answers arrived while you were deciding. They are shown below.',
  voteBeforeNote: 'Your vote was not counted: the user sent a note that changes the task while you were deciding; you will be asked again with it.',
  voteBeforeAnyNote: 'Your vote was not counted: the user sent a note while you were deciding; you will be asked again with it.',
  unknownTool: (name: string, available: string) => `Unknown tool '${name}'. Available tools: ${available}.`,
  notRunBesideUnknownTool: 'Not executed: this response also called an unknown tool.',
  otherToolsFirst: (coordination: string) => `Not executed: call other tools first, then end your turn with one call of ${coordination} on its own.`,
  coordinationAlone: (coordination: string) => `Not accepted: the coordination call (${coordination}) must be the only tool call in its response.`,
  voteAndAnswer: "Cannot use both 'vote' and 'new_answer' in same response. Choose one: vote for existing answer OR provide new answer.",
  multipleVotes: (n: number) => `Multiple vote calls not allowed. Made ${n} calls but must make exactly 1. Call vote tool once with chosen agent.`,
  extraVote: 'Vote rejected due to multiple votes.',
  multipleAnswers: (n: number) => `Multiple new_answer calls not allowed. Made ${n} calls but must make exactly 1. Put your whole answer in one new_answer call.`,
  extraAnswer: 'Answer rejected due to multiple new_answer calls.',
  repeatedCall: (tool: string) => `Ignored: the same ${tool} call as the one before it in this response, which counts once.`,
  unparsedReply: (excerpt: string, voteOnly: boolean) =>
    `Your last tool call could not be parsed (the server read: ${excerpt}). Call exactly one of ` +
    (voteOnly ? '`vote`, with arguments that are valid JSON, like {"agent_id": "agent1", "reason": "..."}.' : '`new_answer` or `vote`, with arguments that are valid JSON, like {"content": "..."} or {"agent_id": "agent1", "reason": "..."}.'),
  argumentsNotObject: (tool: string) => `Arguments for ${tool} must be a JSON object.`,
  argumentsNotJson: (tool: string, detail: string) => `Arguments for ${tool} are not valid JSON (${detail}).`,
  callAgainLike: (problem: string, tool: string, example: string) => `${problem} Call ${tool} again with arguments like ${example}.`,
  voteBeforeAnswers: 'Cannot vote when no answers exist. Use new_answer tool.',
  voteCountsForCopy: (label: string, alias: string) => `${label} has no answer of its own (its answer was the same as ${alias}'s), so your vote counts for ${alias}.`,
  invalidAgentId: (shown: string, valid: string[]) => `Invalid agent_id '${shown}'. Valid agents: ${valid.join(', ')}`,
  answerCap: (max: number | null) => `You've reached the maximum of ${max} new answer(s). Please vote for the best existing answer using the \`vote\` tool.`,
  emptyAnswer: 'The new_answer content is empty. Provide your complete answer in `content`, or vote for an existing answer.',
  sameAnswerIsVote: (label: string) => `Your answer is the same as ${label}'s, so it is taken as your vote for ${label}.`,
  sameAnswerReason: (label: string) => `the same answer as ${label}`,
  duplicateAnswer: (label: string) => `Answer already provided by ${label}. Provide different answer or vote for existing one.`,
  tooSimilar: (pct: number, label: string, limit: number) =>
    `Your answer overlaps ${pct}% with ${label}'s answer (more than ${limit}% is not allowed). Provide a meaningfully different answer, or vote for the existing one.`,
} as const;

/** What an agent is told when answers were shortened to fit its model's context window (see context-fit.ts). */
export const CONTEXT_TEXTS = {
  /** Room the note in a shortened answer takes, in characters (kept free when sharing the window). */
  noteChars: 220,
  shortenedNote:
    'Some answers above were shortened to fit your context window; each says how much is shown. ' +
    'Call `read_answer` with its agent_id (and start) to read one whole, a piece at a time, before you judge it.',
  readAnswerDescription: (chunk: number) =>
    `Read an agent's current answer that was shortened to fit your context window, ${chunk} characters at a time from \`start\`.`,
  noSuchAnswer: (asked: string, labels: string[]) => `There is no current answer of '${asked}'. Answers exist for: ${labels.join(', ') || 'nobody yet'}.`,
  pieceNote: (version: string, start: number, end: number, total: number) =>
    end < total ? `\n[${version}: characters ${start}-${end} of ${total}; call read_answer with start ${end} for the rest]` : `\n[${version}: characters ${start}-${end} of ${total}, the end]`,
  cannotFit: (label: string, needed: number, window: number) =>
    `${label}'s prompt needs about ${needed} tokens with every answer shortened, more than its model's context window of ${window} tokens allows; ` +
    'use a model with a larger context window, set backend.context_window if the model has one, or shorten the task',
};

/** An answer cut to `share` characters, saying so (the rest is one read_answer call away). */
export function formatShortened(label: string, content: string, share: number): string {
  return `${content.slice(0, share)}\n[shortened to fit your context window: ${share} of ${content.length} characters shown; call read_answer {"agent_id": "${label}"} for all of it]`;
}

/** A follow-up's context: the run it continues (its question, final answer and the change it proposed). */
export function formatPreviousRun(previous: { question: string; answer: string; patch?: string }, followUp: string): string {
  const change = previous.patch ? `\nThe change it made (unified diff, relative to the workspace folder):\n${previous.patch}` : '';
  return [
    '<PREVIOUS RUN>',
    `Question: ${previous.question}`,
    `Final answer:\n${previous.answer}${change}`,
    '<END OF PREVIOUS RUN>',
    '',
    `Follow-up: ${followUp}`,
  ].join('\n');
}

/** The user's notes, as an agent sees them at its boundary (each once). */
export function formatNotes(notes: readonly { text: string }[], changesTask: boolean): string {
  const head = changesTask
    ? 'NOTE FROM THE USER (it changes the task: judge the answers again with it in mind; any vote you cast before it was not counted):'
    : 'NOTE FROM THE USER (take it into account from now on):';
  return [head, ...notes.map((n) => `- ${n.text}`)].join('\n');
}

export const ENFORCEMENT_MESSAGE =
  'Finish your work above by making a tool call of `vote` or `new_answer`. Make sure you actually call the tool.';
export const ENFORCEMENT_MESSAGE_VOTE_ONLY =
  'Finish your work above by making a tool call of `vote`. Make sure you actually call the tool.';

export interface SynthesisInput {
  task: string;
  winnerLabel: string;
  answers: BoardEntry[];
  /** Vote reasons for the winner's answer. */
  reasons: string[];
  tieBreak: boolean;
}

export function buildSynthesisSystemPrompt(systemMessage?: string): string {
  const parts = [
    systemMessage?.trim() ?? '',
    'You have been selected as the winning presenter in a coordination process.\n' +
      'Present the best possible coordinated answer by combining the strengths from all participants.',
    'Reply with the final answer itself, complete, with no preamble about the coordination process.',
  ].filter(Boolean);
  return `## Instructions\n${parts.join('\n\n')}`;
}

export function buildSynthesisUserMessage(input: SynthesisInput): string {
  const voteLine =
    input.reasons.length === 0
      ? 'You received no votes (selected as the best available answer).'
      : `You received ${input.reasons.length} vote(s) with feedback: ${input.reasons.join('; ')}` +
        (input.tieBreak ? ' (tie-broken by registration order)' : '');
  const answers = input.answers.map((e) => {
    const mine = e.label === input.winnerLabel ? ' (YOUR ANSWER)' : '';
    return `<${e.label}>${mine} ${e.content}${answerExtras(e)} <end of ${e.label}>`;
  });
  return [
    formatOriginalMessage(input.task),
    '',
    'VOTING RESULTS:',
    voteLine,
    '',
    'All answers provided during coordination:',
    ...answers,
    '',
    'Based on the coordination process above, present your final answer:',
  ].join('\n');
}
