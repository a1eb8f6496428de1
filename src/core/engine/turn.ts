// One agent turn: show the agent the board, ask the model, and apply its verdict (an answer, a vote, tool calls to
// run first, or a correction and another try), with turn-level retries when the model fumbles the protocol or the
// turn runs out of time. A failed or stopped turn leaves no half-finished exchange in the conversation.

import type { ChatMessage, ModelRequest, ModelResponse, ToolCall } from '../providers/types';
import { ProviderError } from '../providers/types';
import { errorMessage } from '../util/errors';
import { oneLine } from '../util/text';
import { AbortedError, raceAbort } from '../util/abort';
import { sleep } from '../util/sleep';
import { BudgetStop, estimatePromptTokens } from './budget';
import { coordinationTools, parseTextToolCalls, repeatedCalls, validateResponse, NEW_ANSWER, VOTE, type ResponseVerdict } from './coordination-tools';
import { deliverBoard, deliverNotes, toolResult } from './conversation';
import { checkAnswer } from './answer-checks';
import type { AnswerChange, CheckResult, FailureCause, VoteRecord } from './events';
import { callModel } from './model-call';
import { sharedStart } from './prefix-gate';
import { fits, readAnswer, readAnswerTool, refit, windowOf } from './context-fit';
import { buildCoordinationSystemPrompt, CONTEXT_TEXTS, COORDINATION_RESULTS, ENFORCEMENT_MESSAGE, ENFORCEMENT_MESSAGE_VOTE_ONLY, TEXT_TOOL_PROTOCOL } from './prompts';
import { READ_ANSWER } from './tool-names';
import { asProviderError, retryDelayMs } from './retry';
import type { AgentRuntime, RunContext } from './run-context';

export const MAX_ENFORCEMENT_ATTEMPTS = 3;
/** Tool round-trips allowed inside one turn before it counts as a failed turn (runaway tool loops). */
export const MAX_TOOL_STEPS_PER_TURN = 25;

/** A turn that failed for a reason of the engine's own (not a provider error). */
class TurnError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly failure: FailureCause,
    /** The model never called any tool in the whole turn. */
    readonly silent = false,
  ) {
    super(message);
  }
}

/** After a silent turn, this many calls more (once the board has changed) before the agent is set aside. */
const LAST_CALLS_AFTER_SILENCE = 1;

function failureCause(err: unknown): FailureCause {
  return err instanceof TurnError ? err.failure : 'provider';
}

/** Why an agent whose model never calls a tool is set aside after `replies` replies, in words a user can act on. */
function silenceMessage(agent: AgentRuntime, replies: number): string {
  return (
    `the model never called the coordination tools (${NEW_ANSWER}, ${VOTE}) in ${replies} replies; ` +
    `it may not support tool calling: use a model with tool calling for ${agent.label}, or one that follows the JSON text form`
  );
}

/**
 * Sets aside an agent still waiting for news after a turn that failed on the protocol (see
 * `AgentRuntime.waitsForNews`) once nothing can change the board any more: its next turn would only repeat that one.
 */
export function setAsideWaiting(ctx: RunContext, agent: AgentRuntime): void {
  ctx.markFailed(agent, agent.waitsForNews?.reason ?? 'its model fumbled the protocol', 'protocol');
}

/** Servers such as Ollama answer 400 "<model> does not support tools" when a model has no tool calling. */
function refusesTools(err: unknown): boolean {
  return err instanceof ProviderError && err.kind === 'invalid_request' && /does not support tools|tools? (is|are) not supported|tool.{0,40}not supported|unsupported.{0,40}tool/i.test(err.message);
}

/** Runs the agent's turn for `round`, retrying failed turns within the agent's failure budget. Never throws. */
export async function runTurnWithRetries(ctx: RunContext, agent: AgentRuntime, round: number): Promise<void> {
  while (!agent.failed && !ctx.stopCause && !ctx.decided) {
    const checkpoint = agent.conversation.checkpoint();
    try {
      await runTurn(ctx, agent, round);
      agent.consecutiveFailures = 0;
      agent.silentTurns = 0;
      agent.waitsForNews = null;
      agent.notes.kept.push(...agent.notes.delivered);
      agent.notes.delivered = [];
      return;
    } catch (err) {
      if (ctx.stopCause || agent.failed || ctx.decided) return;
      const shown = agent.conversation.seenRevision;
      agent.conversation.restore(checkpoint);
      // The retried turn starts from before those notes were shown: show them again.
      agent.notes.pending.unshift(...agent.notes.delivered);
      agent.notes.delivered = [];
      if (err instanceof BudgetStop) return;
      // Provider errors arrive here only after the call's own retries with back-off are spent (or were never
      // worth trying); re-running the turn would just repeat them. Turn-level retries are for a model that
      // fumbled the protocol or a turn that ran out of time.
      const silent = err instanceof TurnError && err.silent;
      const retryable = err instanceof TurnError && err.retryable && !(silent && agent.silentTurns > 0);
      const message = silent && agent.silentTurns > 0 ? silenceMessage(agent, MAX_ENFORCEMENT_ATTEMPTS + LAST_CALLS_AFTER_SILENCE) : errorMessage(err);
      const cause = failureCause(err);
      if (silent) agent.silentTurns++;
      agent.consecutiveFailures++;
      const willRetry = retryable && agent.consecutiveFailures < ctx.retry.agentFailureBudget;
      ctx.emit({ type: 'turn_failed', agentId: agent.spec.id, error: message, cause, willRetry });
      if (!willRetry) {
        ctx.markFailed(agent, message, cause, err instanceof ProviderError ? err.unreachable : undefined);
        return;
      }
      if (cause === 'protocol') {
        // The retried turn would start from the same prompt: it waits until the board shows the agent something new.
        // The orchestrator starts it then, in a round, or sets the agent aside (setAsideWaiting) once nothing else can
        // change the board.
        agent.waitsForNews = { since: shown, reason: silent ? silenceMessage(agent, MAX_ENFORCEMENT_ATTEMPTS) : message };
        return;
      }
      const delayMs = retryDelayMs(agent.consecutiveFailures, ctx.retry, undefined, ctx.options.random);
      ctx.emit({ type: 'retry', agentId: agent.spec.id, attempt: agent.consecutiveFailures + 1, delayMs, error: message });
      try {
        await sleep(delayMs, ctx.signal, ctx.clock);
      } catch {
        return;
      }
    }
  }
}

async function runTurn(ctx: RunContext, agent: AgentRuntime, round: number): Promise<void> {
  const turn = new AbortController();
  agent.turnController = turn;
  const seconds = ctx.options.timeouts.agentTurnTimeoutSeconds;
  let timedOut = false;
  const timer = ctx.clock.setTimeout(() => {
    timedOut = true;
    turn.abort();
  }, seconds * 1000);
  const onRunAbort = () => turn.abort();
  ctx.signal.addEventListener('abort', onRunAbort, { once: true });
  try {
    await turnLoop(ctx, agent, round, turn.signal);
  } catch (err) {
    if (timedOut) throw new TurnError(`turn timed out after ${seconds} s`, true, 'timeout');
    throw err;
  } finally {
    ctx.clock.clearTimeout(timer);
    ctx.signal.removeEventListener('abort', onRunAbort);
    agent.turnController = null;
    ctx.setSettled(agent, false);
  }
}

/** The toolbox's start, once per agent before its first turn; a failure leaves the agent with the tools that work. */
function startTools(ctx: RunContext, agent: AgentRuntime): Promise<void> {
  const toolbox = agent.spec.toolbox;
  agent.toolsReady ??= (async () => {
    if (!toolbox?.start) return;
    try {
      await toolbox.start(ctx.signal);
      ctx.emit({ type: 'tools_ready', agentId: agent.spec.id, tools: toolbox.tools.map((t) => t.name) });
    } catch (err) {
      ctx.emit({ type: 'tools_ready', agentId: agent.spec.id, tools: toolbox.tools.map((t) => t.name), error: asProviderError(err).message });
    }
  })();
  return agent.toolsReady;
}

/**
 * After every await in a turn: the agent may have been cancelled (`markFailed`) or its turn stopped meanwhile, and
 * then nothing it produced may be accepted. Throws what a stopped turn throws (runTurnWithRetries sorts it out).
 */
function stillOn(agent: AgentRuntime, signal: AbortSignal): void {
  if (agent.failed || signal.aborted) throw new AbortedError();
}

async function turnLoop(ctx: RunContext, agent: AgentRuntime, round: number, signal: AbortSignal): Promise<void> {
  // Adapters (tool servers, copies) may ignore the signal: every await on one is raced against it.
  await raceAbort(startTools(ctx, agent), signal);
  stillOn(agent, signal);
  deliverBoard(ctx, agent, 'next_turn');
  deliverNotes(ctx, agent, 'next_turn');
  ctx.emit({ type: 'turn_started', agentId: agent.spec.id, round, boardRevision: agent.conversation.seenRevision, voteOnly: ctx.capReached(agent) });
  ctx.setSettled(agent, ctx.capReached(agent) || agent.silentTurns > 0);
  const attempts = agent.silentTurns > 0 ? LAST_CALLS_AFTER_SILENCE : MAX_ENFORCEMENT_ATTEMPTS;
  let invalidAttempts = 0;
  let silentReplies = 0;
  for (let step = 0; step < MAX_TOOL_STEPS_PER_TURN; step++) {
    if (step > 0) {
      deliverBoard(ctx, agent, 'tool_result');
      deliverNotes(ctx, agent, 'tool_result');
    }
    const voteOnly = ctx.capReached(agent);
    const response = await askModel(ctx, agent, voteOnly, signal);
    stillOn(agent, signal);
    if (!response) continue;
    if ('unparsed' in response) {
      invalidAttempts++;
      correct(ctx, agent, { kind: 'unparsed', output: response.unparsed }, { attempt: invalidAttempts, of: attempts, silent: false }, voteOnly, false, false);
      continue;
    }
    // Models without tool calling may write the call as JSON in their text; their results then go back as text.
    const textual = response.toolCalls.length === 0;
    const calls = textual ? parseTextToolCalls(response.text, `text_${agent.label}_${step}_${invalidAttempts}`) : response.toolCalls;
    const said: ChatMessage = { role: 'assistant', content: response.text, toolCalls: textual ? undefined : calls };
    agent.conversation.append(said);
    for (const call of calls) ctx.emit({ type: 'tool_call', agentId: agent.spec.id, callId: call.id, name: call.name, arguments: call.arguments });
    const change = await snapshotIfAnswering(ctx, agent, calls, voteOnly, signal);
    stillOn(agent, signal);
    const seenLabels = ctx.agents.filter((a) => agent.conversation.seen.has(a.spec.id)).map((a) => a.label);
    const verdict = judge(ctx, agent, calls, voteOnly, seenLabels, change);
    switch (verdict.kind) {
      case 'answer': {
        // The checks outlast a turn timeout by design (see answer-checks.ts), and re-check the cancel themselves.
        const checks = change && ctx.options.checks ? await checkAnswer(ctx, agent, ctx.options.checks, change, signal) : undefined;
        acceptAnswer(ctx, agent, said, verdict.call, verdict.content, textual, change, checks);
        ignoreRepeats(ctx, agent, verdict.repeats, textual);
        return;
      }
      case 'vote':
        // Its own words are that answer, and the only one it had not seen (see validateAnswer): it has seen the board.
        if (verdict.unseenTarget) agent.conversation.markSeen(ctx.board.current(), ctx.board.revision);
        // A `new_answer` taken as a vote by an agent with no answer of its own: a later vote naming its label counts
        // for the answer it copied.
        if (verdict.call.name === NEW_ANSWER && !ctx.board.latest(agent.spec.id)) ctx.sameAs.set(agent.label, verdict.targetLabel);
        acceptVote(ctx, agent, verdict.call, verdict.targetLabel, verdict.reason, textual, verdict.note);
        ignoreRepeats(ctx, agent, verdict.repeats, textual);
        return;
      case 'tools':
        ctx.setSettled(agent, voteOnly);
        for (const call of verdict.calls) {
          // Besides read_answer (the engine's own), `tools` is only the verdict for tools of the agent's toolbox.
          const result = call.name === READ_ANSWER ? readAnswer(ctx, agent, call) : await raceAbort(agent.spec.toolbox!.execute(call, signal), signal);
          stillOn(agent, signal);
          toolResult(ctx, agent, call, result.ok, result.content, textual);
        }
        continue;
      case 'invalid':
      case 'none':
        invalidAttempts++;
        if (verdict.kind === 'none') silentReplies++;
        correct(ctx, agent, verdict, { attempt: invalidAttempts, of: attempts, silent: silentReplies === invalidAttempts }, voteOnly, textual, seenLabels.length > 0);
    }
  }
  throw new TurnError(`more than ${MAX_TOOL_STEPS_PER_TURN} tool steps in one turn`, true, 'protocol');
}

/**
 * One model call for the turn; null when the server refused tool definitions and the agent switched to text;
 * `unparsed` when the server could not parse the model's reply (what it quoted of it).
 */
async function askModel(ctx: RunContext, agent: AgentRuntime, voteOnly: boolean, signal: AbortSignal): Promise<ModelResponse | { unparsed: string } | null> {
  const toolbox = agent.spec.toolbox;
  const system = buildCoordinationSystemPrompt({
    systemMessage: agent.spec.systemMessage,
    votingSensitivity: ctx.options.orchestrator.votingSensitivity,
    noveltyRequirement: ctx.options.orchestrator.answerNoveltyRequirement,
    now: ctx.promptTime,
    voteOnly,
    ...(ctx.options.checks ? { checks: { names: ctx.options.checks.names, gate: ctx.options.checks.mode === 'gate' } } : {}),
  });
  // Every agent's label, also those of escalation stages not called yet: the tool list stays the same all run, so
  // the cached prompt prefix holds; a vote for a label without an answer is refused with the labels that have one.
  const labels = ctx.agents.map((a) => a.label);
  const build = (messages: ModelRequest['messages']): ModelRequest => ({
    system: agent.textOnly ? `${system}\n\n${TEXT_TOOL_PROTOCOL}` : system,
    messages,
    tools: agent.textOnly ? [] : [...coordinationTools(labels, voteOnly), ...(agent.conversation.readsAnswers ? [readAnswerTool(labels)] : []), ...(toolbox?.tools ?? [])],
    toolChoice: 'auto',
    temperature: agent.spec.temperature,
    maxTokens: agent.spec.maxTokens,
    cacheKey: ctx.cacheKey,
    // Tool steps extend the conversation within the turn: its end is worth caching even at a write premium.
    cacheTail: (toolbox?.tools.length ?? 0) > 0,
    // A rebuilt conversation's start is worth the premium only when other agents read it too.
    cacheHead: !agent.conversation.compacted || ctx.cachePeers(agent) > 0,
  });
  let request = build(agent.conversation.messages.slice());
  const window = windowOf(agent);
  if (window && !fits(request, agent, window)) {
    const refitted = refit(ctx, agent, window, build);
    request = build(agent.conversation.messages.slice());
    if (!refitted || !fits(request, agent, window)) throw new TurnError(CONTEXT_TEXTS.cannotFit(agent.label, estimatePromptTokens(request), window), false, 'context');
  }
  agent.promptTokens = estimatePromptTokens(request);
  const stable = estimatePromptTokens({ ...request, messages: [] });
  // What the cache holds of it: all of it, or (a breakpoint cache without the tail marked) up to the first user turn's
  // shared start, or only the tools and system prompt when that is not marked either.
  const start = sharedStart(request);
  const held =
    request.cacheTail || agent.spec.provider.promptCache?.mode !== 'breakpoints'
      ? agent.promptTokens
      : request.cacheHead === false || start === null
        ? stable
        : estimatePromptTokens({ ...request, messages: [{ role: 'user', content: start }] });
  agent.lastPrompt = { tokens: held, stable, voteOnly };
  try {
    return await callModel(ctx, agent, request, signal, 'coordination');
  } catch (err) {
    // A cut or malformed call the server could not read is the model's reply, refused like a malformed call.
    if (err instanceof ProviderError && err.kind === 'unparsed_output') return { unparsed: err.output ?? '' };
    if (agent.textOnly || !refusesTools(err)) throw err;
    agent.textOnly = true;
    ctx.emit({ type: 'retry', agentId: agent.spec.id, attempt: 2, delayMs: 0, error: `${errorMessage(err)}; continuing with coordination calls as JSON text` });
    return null;
  }
}

/**
 * In a workspace run, an answer is its text plus the agent's copy: the copy is snapshotted as the version this
 * answer would become before the answer is judged, since "the same answer" means the same text and the same change.
 */
async function snapshotIfAnswering(ctx: RunContext, agent: AgentRuntime, calls: ToolCall[], voteOnly: boolean, signal: AbortSignal): Promise<AnswerChange | undefined> {
  const workspace = agent.spec.workspace;
  const repeats = repeatedCalls(calls);
  const distinct = calls.filter((c) => !repeats.includes(c));
  if (!workspace || voteOnly || distinct.length !== 1 || distinct[0].name !== NEW_ANSWER) return undefined;
  const version = (ctx.board.latest(agent.spec.id)?.version ?? 0) + 1;
  try {
    return await raceAbort(workspace.snapshot(`${agent.label}.${version}`, signal), signal);
  } catch (err) {
    if (signal.aborted) throw err;
    throw new TurnError(`could not record ${agent.label}'s working copy: ${errorMessage(err)}`, false, 'workspace');
  }
}

function judge(ctx: RunContext, agent: AgentRuntime, calls: ToolCall[], voteOnly: boolean, seenLabels: string[], change: AnswerChange | undefined): ResponseVerdict {
  return validateResponse(calls, {
    labelsWithAnswers: seenLabels,
    allLabels: ctx.agents.map((a) => a.label),
    currentAnswers: ctx.board.current().map((a) => ({ label: a.agentLabel, content: a.content, changeId: a.change?.id, seen: agent.conversation.seen.get(a.agentId) === a.version })),
    changeId: change?.id,
    capReached: voteOnly,
    maxNewAnswers: ctx.options.orchestrator.maxNewAnswersPerAgent,
    novelty: ctx.options.orchestrator.answerNoveltyRequirement,
    otherTools: new Set([...(agent.spec.toolbox?.tools ?? []).map((t) => t.name), ...(agent.conversation.readsAnswers ? [READ_ANSWER] : [])]),
    sameAs: ctx.sameAs,
  });
}

/** What is wrong with a reply: a verdict's, or a reply the server could not parse (`output`: what it quoted). */
type Fault = Extract<ResponseVerdict, { kind: 'invalid' | 'none' }> | { kind: 'unparsed'; output: string };

/** Room for the quoted reply in the correction: enough to recognise it. */
const UNPARSED_EXCERPT_CHARS = 160;

/** A refused or missing coordination call: tell the model what to fix, or give up after the allowed attempts. */
function correct(
  ctx: RunContext,
  agent: AgentRuntime,
  verdict: Fault,
  { attempt, of, silent }: { attempt: number; of: number; silent: boolean },
  voteOnly: boolean,
  textual: boolean,
  canVote: boolean,
): void {
  let message =
    verdict.kind === 'none'
      ? voteOnly
        ? ENFORCEMENT_MESSAGE_VOTE_ONLY
        : ENFORCEMENT_MESSAGE
      : verdict.kind === 'unparsed'
        ? COORDINATION_RESULTS.unparsedReply(oneLine(verdict.output, UNPARSED_EXCERPT_CHARS), voteOnly)
        : verdict.summary;
  // After a second reply without any call, offer the text form: the model may not be able to call tools.
  if (verdict.kind === 'none' && attempt >= 2) message = `${message} ${TEXT_TOOL_PROTOCOL}`;
  ctx.emit({ type: 'correction', agentId: agent.spec.id, attempt, message });
  if (verdict.kind === 'invalid') {
    if (verdict.sameAs) ctx.sameAs.set(agent.label, verdict.sameAs);
    for (const r of verdict.results) toolResult(ctx, agent, r.call, false, r.content, textual);
  } else if (verdict.kind === 'unparsed') {
    // The server kept nothing of the reply, so the conversation has no assistant turn for it to follow.
    agent.conversation.appendUserText(message);
  } else {
    agent.conversation.append({ role: 'user', content: message });
  }
  if (attempt >= of) {
    if (silent) throw new TurnError(`the model replied ${attempt} time(s) without calling ${NEW_ANSWER} or ${VOTE}`, true, 'protocol', true);
    throw new TurnError(`no valid ${VOTE} or ${NEW_ANSWER} call after ${attempt} attempts (last: ${message})`, true, 'protocol');
  }
  ctx.setSettled(agent, voteOnly || (verdict.kind === 'invalid' && leavesAVote(verdict, canVote)));
}

/**
 * A refusal after which the model is all but certain to vote in the same turn: its `new_answer` repeats or is too
 * close to an answer on the board (it is told to vote for that one instead), or its `vote` had only a fixable flaw
 * (unknown label, bad JSON, two votes) while there are answers to vote for. Anything else (a reply without a call,
 * other tools, an empty or malformed answer) may well still end in an answer, so it keeps the round waiting.
 */
function leavesAVote(verdict: Extract<ResponseVerdict, { kind: 'invalid' }>, canVote: boolean): boolean {
  if (verdict.sameAs) return true;
  return canVote && verdict.results.every((r) => r.call.name === VOTE);
}

/** The same coordination call sent again in the accepted response: every call id needs its result. */
function ignoreRepeats(ctx: RunContext, agent: AgentRuntime, repeats: ToolCall[] | undefined, textual: boolean): void {
  for (const call of repeats ?? []) toolResult(ctx, agent, call, true, COORDINATION_RESULTS.repeatedCall(call.name), textual);
}

function acceptAnswer(ctx: RunContext, agent: AgentRuntime, said: ChatMessage, call: ToolCall, content: string, textual: boolean, change: AnswerChange | undefined, checks: CheckResult[] | undefined): void {
  const { board } = ctx;
  const { conversation } = agent;
  const sawEverything = conversation.seenRevision === board.revision;
  const answer = board.add(agent.spec.id, content, { informed: conversation.seenRevision, change, checks });
  ctx.sameAs.delete(agent.label);
  agent.answerCount++;
  // `seen` is left alone: the board next turn lists the answer under its anonymous label (by reference while this
  // call is still in the conversation, see deliverBoard), and the result names the label to vote for.
  conversation.recordAnswerCall(answer.version, said);
  if (sawEverything) conversation.markRevisionSeen(board.revision);
  toolResult(ctx, agent, call, true, checks ? COORDINATION_RESULTS.answerChecked(answer.label, checks) : COORDINATION_RESULTS.answerRecorded(answer.label), textual);
  ctx.emit({
    type: 'answer_added',
    agentId: agent.spec.id,
    label: answer.label,
    version: answer.version,
    content,
    boardRevision: answer.revision,
    ...(change ? { change } : {}),
  });
  for (const other of ctx.agents) {
    if (other.vote && other.vote.seenRevision < board.revision) {
      ctx.emit({ type: 'vote_invalidated', voterId: other.spec.id, targetLabel: other.vote.targetLabel, reason: `new answer ${answer.label}` });
      other.vote = null;
    }
  }
}

function acceptVote(ctx: RunContext, agent: AgentRuntime, call: ToolCall, targetAgentLabel: string, reason: string, textual: boolean, note?: string): void {
  // The verdict names only labels with an answer the agent has seen.
  const target = ctx.agents.find((a) => a.label === targetAgentLabel)!;
  const version = agent.conversation.seen.get(target.spec.id)!;
  const vote: VoteRecord = {
    voterId: agent.spec.id,
    targetId: target.spec.id,
    targetLabel: `${target.label}.${version}`,
    reason,
    seenRevision: agent.conversation.seenRevision,
  };
  agent.lastVote = vote;
  ctx.emit({ type: 'vote_cast', vote });
  // A `new_answer` taken as a vote: the reply says so first, counted or not (the model never called `vote`).
  const withNote = (reply: string) => (note && call.name === NEW_ANSWER ? `${note} ${reply}` : reply);
  const missed = ctx.board.since(agent.conversation.seenRevision);
  // A note sent while the agent decided: the vote did not see it, so it is asked again with the note.
  if (agent.notes.pending.length > 0) {
    const changesTask = agent.notes.pending.some((n) => ctx.notesChangingTask.has(n.id));
    agent.vote = null;
    const reason = changesTask ? "the user's note changed the task before the vote" : "the user's note came before the vote: asked again with it";
    ctx.emit({ type: 'vote_invalidated', voterId: agent.spec.id, targetLabel: vote.targetLabel, reason });
    toolResult(ctx, agent, call, false, withNote(changesTask ? COORDINATION_RESULTS.voteBeforeNote : COORDINATION_RESULTS.voteBeforeAnyNote), textual);
    return;
  }
  if (missed.length === 0) {
    agent.vote = vote;
    toolResult(ctx, agent, call, true, COORDINATION_RESULTS.voteRecorded(note), textual);
    return;
  }
  agent.vote = null;
  const labels = missed.map((a) => a.label).join(', ');
  ctx.emit({ type: 'vote_invalidated', voterId: agent.spec.id, targetLabel: vote.targetLabel, reason: `new answer ${labels} arrived before the vote` });
  toolResult(ctx, agent, call, false, withNote(COORDINATION_RESULTS.voteOvertaken), textual);
}
