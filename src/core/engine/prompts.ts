// Prompt building, kept pure and textual so it can be tested and diffed against upstream's wording, which models
// are tuned on. Labels are the run's one stable mapping: agentK = K-th agent in config order.

import type { Sensitivity } from '../config/types';

export interface BoardEntry {
  /** agentK */
  label: string;
  /** agentK.M */
  versionLabel: string;
  content: string;
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

export function formatCurrentAnswers(entries: BoardEntry[]): string {
  if (entries.length === 0) {
    return '<CURRENT ANSWERS from the agents>\n(no answers available yet)\n<END OF CURRENT ANSWERS>';
  }
  const blocks = entries.map((e) => `<${e.label}> ${e.content} <end of ${e.label}>`);
  return `<CURRENT ANSWERS from the agents>\n${blocks.join('\n\n')}\n<END OF CURRENT ANSWERS>`;
}

/** The first user message of an agent's conversation: the task and the board as it stands. */
export function buildInitialUserMessage(task: string, board: BoardEntry[]): string {
  return `${formatOriginalMessage(task)}\n\n${formatCurrentAnswers(board)}`;
}

/**
 * What an agent is told when the board changed since it last looked. Only the changed answers are sent in full
 * (the rest are already in its context), so a conversation grows with the news, not with the whole board again.
 */
export function buildUpdateMessage(changed: BoardEntry[], unchanged: BoardEntry[], voteOnly: boolean): string {
  const lines = [
    'UPDATE: While you were working, new answers were provided.',
    '',
    '<NEW ANSWERS>',
    ...changed.map((e) => `<${e.label}> ${e.content} <end of ${e.label}>`),
    '</NEW ANSWERS>',
  ];
  if (unchanged.length > 0) {
    lines.push('', `Unchanged since you last saw them: ${unchanged.map((e) => e.label).join(', ')}.`);
  }
  lines.push(
    '',
    'The CURRENT ANSWERS are now the latest answer of each agent listed above or earlier. Any vote you cast before this update was not counted.',
    voteOnly
      ? 'Proceed with your decision: call `vote` for the best current answer.'
      : 'Proceed with your decision: vote for the best current answer with `vote`, or provide a better answer with `new_answer`.',
  );
  return lines.join('\n');
}

export const ENFORCEMENT_MESSAGE =
  'Finish your work above by making a tool call of `vote` or `new_answer`. Make sure you actually call the tool.';
export const ENFORCEMENT_MESSAGE_VOTE_ONLY =
  'Finish your work above by making a tool call of `vote`. Make sure you actually call the tool.';

export interface SynthesisInput {
  task: string;
  systemMessage?: string;
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
    return `<${e.label}>${mine} ${e.content} <end of ${e.label}>`;
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
