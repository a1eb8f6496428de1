import assert from 'node:assert/strict';
import { DEFAULT_ORCHESTRATOR, DEFAULT_TIMEOUTS, type AgentConfig, type MassGenConfig } from '../config/types';
import { reply, ScriptedProvider, type Script } from '../providers/scripted';
import type { CodeItem, QaItem } from './dataset';
import { configForItem, sessionRunner, type RunnerContext } from './session-run';

const agent = (id: string, pricing?: boolean): AgentConfig => ({
  id,
  backend: { type: 'chatcompletion', family: 'openai-compatible', model: `model-${id}`, baseUrl: 'http://127.0.0.1:9/v1', ...(pricing ? { pricing: { inputPerMillion: 1e6, cachedInputPerMillion: 1e6, outputPerMillion: 1e6 } } : {}) },
});
const config = (agents: AgentConfig[], over: Partial<MassGenConfig['orchestrator']> = {}): MassGenConfig => ({ agents, orchestrator: { ...DEFAULT_ORCHESTRATOR, ...over }, timeouts: { ...DEFAULT_TIMEOUTS }, source: 't' });
const item: QaItem = { kind: 'qa', id: 'q1', index: 0, line: 1, question: 'Capital of France?', answers: ['Paris'] };
const usage = { inputTokens: 3, cachedInputTokens: 0, outputTokens: 1 };

/** Scripted agents: each answers its text, then votes for `voteFor`; the providers keep every request. */
function context(cfg: MassGenConfig, scripts: Record<string, Script>): { ctx: RunnerContext; providers: Record<string, ScriptedProvider> } {
  const providers: Record<string, ScriptedProvider> = {};
  const ctx: RunnerContext = {
    config: cfg,
    cwd: process.cwd(),
    env: {},
    approveTools: false,
    allowCommands: false,
    workspacesDir: '/tmp',
    onWarning: () => undefined,
    // A fresh provider per run, as the factory builds one per session.
    extraProviders: (a) => (providers[`${a.id}#${Object.keys(providers).length}`] = new ScriptedProvider(a.backend.model, scripts[a.id])),
    engine: { retry: { baseDelayMs: 1, maxDelayMs: 2 } },
  };
  return { ctx, providers };
}

/** Answers until it has seen answers on the board (`<agentK>` blocks), then votes. */
const player = (answer: string, voteFor: string): Script => (request) => (request.messages.some((m) => /<agent\d+>/.test(m.content)) ? reply.vote(voteFor, 'it is right', { usage }) : reply.answer(answer, { usage }));

describe('eval sessionRunner', () => {
  it('an agent alone: one answer turn, one call, the answer as given, no vote', async () => {
    const { ctx, providers } = context(config([agent('a', true), agent('b')]), { a: player('Answer: Paris', 'agent1'), b: player('Answer: Lyon', 'agent1') });
    const outcome = await sessionRunner(ctx)(item, { agent: 'a' }, { signal: new AbortController().signal });
    assert.ok(outcome !== 'cancelled');
    assert.equal(outcome.finalAnswer, 'Answer: Paris');
    assert.equal(outcome.reason, 'user_stop');
    assert.equal(outcome.winnerId, 'a');
    assert.deepEqual([outcome.usage.calls, outcome.usage.inputTokens, outcome.usage.outputTokens], [1, 3, 1]);
    assert.equal(outcome.usage.costUsd, 4, 'priced: 3 + 1 tokens at $1 each');
    const [only] = Object.values(providers);
    assert.equal(only.requests.length, 1);
    assert.match(only.requests[0].messages[0].content, /Capital of France\?\n\nGive your reasoning/);
    assert.ok(only.requests[0].tools.some((t) => t.name === 'new_answer'), 'the same coordination framing as in the team');
  });

  it('the team: every agent answers, the votes pick the winner', async () => {
    const { ctx } = context(config([agent('a'), agent('b')]), { a: player('Answer: Lyon', 'agent2'), b: player('Answer: Paris', 'agent2') });
    const outcome = await sessionRunner(ctx)(item, { team: true }, { signal: new AbortController().signal });
    assert.ok(outcome !== 'cancelled');
    assert.deepEqual([outcome.finalAnswer, outcome.winnerId, outcome.reason, outcome.votes], ['Answer: Paris', 'b', 'consensus', { b: 2 }]);
    assert.equal(outcome.usage.calls, 4);
    assert.equal(outcome.error, undefined);
  });

  it('the team in escalation stages: stage 2 joins when stage 1 disagrees, and the outcome says so', async () => {
    const { ctx, providers } = context(config([agent('a'), agent('b'), agent('strong')]), { a: player('Answer: Lyon', 'agent1'), b: player('Answer: Paris', 'agent2'), strong: player('Answer: Paris', 'agent2') });
    const outcome = await sessionRunner(ctx)(item, { team: true, escalation: { stages: [['a', 'b'], ['strong']], minAgreeing: 1 } }, { signal: new AbortController().signal });
    assert.ok(outcome !== 'cancelled');
    assert.deepEqual(outcome.escalation, { stagesCalled: 2, reasons: ['disagreement'] });
    assert.equal(outcome.finalAnswer, 'Answer: Paris');
    assert.ok(Object.keys(providers).some((k) => k.startsWith('strong#')), 'the strong agent was called');
  });

  it('the team in escalation stages: stage 1 agreeing ends the run without stage 2', async () => {
    const { ctx, providers } = context(config([agent('a'), agent('b'), agent('strong')]), { a: player('Answer: Paris', 'agent1'), b: player('Answer: Paris', 'agent1'), strong: player('Answer: Lyon', 'agent3') });
    const outcome = await sessionRunner(ctx)(item, { team: true, escalation: { stages: [['a', 'b'], ['strong']], minAgreeing: 1 } }, { signal: new AbortController().signal });
    assert.ok(outcome !== 'cancelled');
    assert.deepEqual(outcome.escalation, { stagesCalled: 1, reasons: [] });
    assert.equal(outcome.finalAnswer, 'Answer: Paris');
    const strong = Object.entries(providers).find(([k]) => k.startsWith('strong#'));
    assert.equal(strong?.[1].requests.length ?? 0, 0, 'the strong agent made no call');
  });

  it('a run cancelled midway is no result', async () => {
    const slow: Script = () => ({ ...reply.answer('Answer: Paris'), delayMs: 5000 });
    const { ctx } = context(config([agent('a')]), { a: slow });
    const ac = new AbortController();
    const pending = sessionRunner(ctx)(item, { team: true }, { signal: ac.signal });
    setTimeout(() => ac.abort(), 30);
    assert.equal(await pending, 'cancelled');
  });

  it('a run without an answer carries the reason as its error', async () => {
    const { ctx } = context(config([agent('a')]), { a: () => reply.text('I refuse to use tools.') });
    const outcome = await sessionRunner(ctx)(item, { team: true }, { signal: new AbortController().signal });
    assert.ok(outcome !== 'cancelled');
    assert.equal(outcome.finalAnswer, null);
    assert.match(outcome.error!, /Every agent failed|No agent produced an answer/);
  });

  it('configForItem: the item\'s checks replace the config\'s; alone is a one-agent team answering as is', () => {
    const cfg = config([agent('a'), agent('b')], { checks: [{ name: 'project', command: 'make', timeoutSeconds: 1, required: true }], verification: 'gate', finalAnswer: 'synthesize' });
    const code: CodeItem = { kind: 'code', id: 'c', index: 0, line: 1, task: 't', workspace: '/w', checks: [{ name: 't', command: 'npm test', timeoutSeconds: 9, required: true }] };
    const team = configForItem(cfg, code, { team: true });
    assert.deepEqual([team.orchestrator.checks, team.orchestrator.verification, team.orchestrator.finalAnswer, team.agents.length], [code.checks, 'gate', 'synthesize', 2]);
    const alone = configForItem(cfg, code, { agent: 'b' });
    assert.deepEqual([alone.agents.map((a) => a.id), alone.orchestrator.finalAnswer, alone.orchestrator.checks], [['b'], 'as_is', code.checks]);
    assert.equal(configForItem(config([agent('a')], { verification: 'off' }), code, { team: true }).orchestrator.verification, 'inform', 'the checks always run: they decide the score');
    const staged = { ...cfg, orchestrator: { ...cfg.orchestrator, escalation: { stages: [['a'], ['b']], minAgreeing: 1 } } };
    assert.equal(configForItem(staged, item, { team: true }).orchestrator.escalation, undefined, 'team: the whole team from the start');
    assert.deepEqual(configForItem(staged, item, { team: true, escalation: { stages: [['b'], ['a']], minAgreeing: 1 } }).orchestrator.escalation, { stages: [['b'], ['a']], minAgreeing: 1 });
    assert.equal(configForItem(staged, item, { agent: 'a' }).orchestrator.escalation, undefined);
    const qa = configForItem(cfg, item, { team: true });
    assert.deepEqual([qa.orchestrator.checks, qa.orchestrator.verification], [undefined, undefined], 'a question has no checks');
  });
});
