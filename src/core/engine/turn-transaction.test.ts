// Issue 26: a failed turn leaves no trace in the conversation (E1, E2), a cancelled agent cannot answer (E3), an
// adapter that ignores cancellation cannot hang the run (E4), and timeouts beyond Node's timer range are not fired
// at once (E5). Each test sets up its window by causality (the adapter itself cancels) or on a fake clock, never by
// the machine's timing.

import assert from 'node:assert/strict';
import { reply, requestText, type Script } from '../providers/scripted';
import { FakeClock } from '../../../test/helpers/fake-clock';
import { boardHasAnswers, runTeam, type TeamRun } from '../../../test/helpers/test-team';
import type { ModelProvider } from '../providers/types';
import type { AgentToolbox, AgentWorkspace } from './ports';

const never = new Promise<never>(() => undefined);
const count = (text: string, part: string) => text.split(part).length - 1;

describe('a failed turn is a transaction', () => {
  it('a turn that rebuilt the conversation to fit the window, then timed out, is retried from before it (E1)', async () => {
    const clock = new FakeClock();
    const PEER = `B-PEER ${'word '.repeat(8_000)}`; // 40 kB: does not fit a 16k window whole
    // a's second turn (after the board changed) hangs past the turn timeout once, then votes.
    const a: Script = (req, i) => (!boardHasAnswers(req) ? reply.answer('A short') : i === 1 ? { ...reply.vote('agent2'), delayMs: 60_000 } : reply.vote('agent2'));
    const team = runTeam(
      [
        { id: 'a', script: a, contextWindow: 16_000 },
        { id: 'b', script: (req) => (boardHasAnswers(req) ? reply.vote('agent2') : reply.answer(PEER, { delayMs: 30 })) },
      ],
      { timeouts: { agentTurnTimeoutSeconds: 0.2 }, clock },
    );
    const result = await team.result;
    assert.deepEqual(team.of('agent_failed'), []);
    assert.ok(team.of('turn_failed').some((e) => e.agentId === 'a' && /timed out/.test(e.error)));
    assert.equal(result.reason, 'consensus');
    const retried = team.requests('a')[2];
    assert.ok(retried.messages.every((m) => m !== undefined && m !== null && typeof m.content === 'string'), 'no holes in the retried conversation');
  });

  it('a text-form agent is shown a board update once after a timed-out turn (E2)', async () => {
    const clock = new FakeClock();
    const asText = (call: string, args: Record<string, string>) => reply.text(JSON.stringify({ tool_name: call, arguments: args }));
    const a: Script = (req, i) => (!boardHasAnswers(req) ? asText('new_answer', { content: 'A text answer' }) : i === 1 ? { ...asText('vote', { agent_id: 'agent2', reason: 'r' }), delayMs: 60_000 } : asText('vote', { agent_id: 'agent2', reason: 'r' }));
    const team = runTeam(
      [
        { id: 'a', script: a },
        { id: 'b', script: (req) => (boardHasAnswers(req) ? reply.vote('agent2') : reply.answer('B-REVISED-TEXT', { delayMs: 30 })) },
      ],
      { timeouts: { agentTurnTimeoutSeconds: 0.2 }, orchestrator: { contextCompaction: 'never' }, clock },
    );
    const result = await team.result;
    assert.equal(result.reason, 'consensus');
    const [first, timedOut, retried] = team.requests('a');
    assert.equal(count(requestText(first), 'B-REVISED-TEXT'), 0);
    assert.equal(count(requestText(timedOut), 'B-REVISED-TEXT'), 1);
    assert.equal(count(requestText(retried), 'B-REVISED-TEXT'), 1, 'the retried request carries the update once');
  });

  it('a note shown in a failed turn reaches the retried turn once', async () => {
    const clock = new FakeClock();
    const late: { team?: TeamRun } = {};
    const a: Script = (_req, i) => {
      if (i === 0) {
        late.team!.orchestrator.note('PLEASE-BE-BRIEF');
        return { toolCalls: [{ name: 'lookup', arguments: {} }] };
      }
      return i === 1 ? { ...reply.answer('A'), delayMs: 60_000 } : reply.answer('A');
    };
    const toolbox: AgentToolbox = { tools: [{ name: 'lookup', description: 'look up', parameters: { type: 'object', properties: {} } }], execute: async () => ({ ok: true, content: 'facts' }) };
    const team = (late.team = runTeam([{ id: 'a', script: (req, i) => (boardHasAnswers(req) && i > 2 ? reply.vote('agent1') : a(req, i)), toolbox }], { timeouts: { agentTurnTimeoutSeconds: 0.2 }, clock }));
    const result = await team.result;
    assert.equal(result.reason, 'consensus');
    const retried = team.requests('a')[2];
    assert.equal(count(requestText(retried), 'PLEASE-BE-BRIEF'), 1);
    assert.equal(team.of('note_delivered').length, 2, 'delivered in the failed turn and again in the retry');
  });
});

describe('a cancelled agent', () => {
  it('cannot answer (and win) once cancelled while its copy is snapshotted (E3)', async () => {
    const clock = new FakeClock();
    const late: { team?: TeamRun } = {};
    const workspace: AgentWorkspace = {
      // The user cancels the agent while its snapshot is taken; the snapshot still completes (git does not stop).
      async snapshot() {
        late.team!.orchestrator.cancelAgent('a');
        return { id: 'tree-a', files: [], bytesWritten: 0 };
      },
    };
    const team = (late.team = runTeam([
      { id: 'a', script: (req) => (boardHasAnswers(req) ? reply.vote('agent1') : reply.answer('A cancelled')), workspace },
      { id: 'b', script: (req) => (boardHasAnswers(req) ? reply.vote('agent2') : reply.answer('B kept', { delayMs: 30 })) },
    ], { clock }));
    const result = await team.result;
    assert.deepEqual(team.of('answer_added').map((e) => e.agentId), ['b']);
    assert.equal(result.winnerId, 'b');
  });

  it('cannot vote once cancelled while its model answered', async () => {
    const clock = new FakeClock();
    const late: { team?: TeamRun } = {};
    const a: Script = (req) => {
      if (!boardHasAnswers(req)) return reply.answer('A');
      late.team!.orchestrator.cancelAgent('a');
      return reply.vote('agent1');
    };
    const team = (late.team = runTeam([{ id: 'a', script: a }, { id: 'b', script: (req) => (boardHasAnswers(req) ? reply.vote('agent2') : reply.answer('B')) }], { clock }));
    await team.result;
    assert.deepEqual(team.of('vote_cast').map((e) => e.vote.voterId), ['b']);
  });
});

describe('an adapter that ignores cancellation', function () {
  this.timeout(5000);
  const hungTool = (onCall: () => void): AgentToolbox => ({
    tools: [{ name: 'lookup', description: 'look up', parameters: { type: 'object', properties: {} } }],
    execute: () => {
      onCall();
      return never;
    },
  });

  it('a hung tool does not outlive Cancel: the run ends (E4)', async () => {
    const clock = new FakeClock();
    const late: { team?: TeamRun } = {};
    const team = (late.team = runTeam([
      { id: 'a', script: () => ({ toolCalls: [{ name: 'lookup', arguments: {} }] }), toolbox: hungTool(() => setImmediate(() => late.team!.orchestrator.cancel())) },
    ], { clock }));
    const result = await team.result;
    assert.equal(result.reason, 'cancelled');
  });

  it('a hung tool ends with its turn\'s timeout, and the turn is retried', async () => {
    const clock = new FakeClock();
    let calls = 0;
    const team = runTeam(
      [{ id: 'a', script: (req) => (boardHasAnswers(req) ? reply.vote('agent1') : calls === 0 ? { toolCalls: [{ name: 'lookup', arguments: {} }] } : reply.answer('A')), toolbox: hungTool(() => calls++) }],
      { timeouts: { agentTurnTimeoutSeconds: 0.2 }, clock },
    );
    const result = await team.result;
    assert.equal(result.reason, 'consensus');
    assert.ok(team.of('turn_failed').some((e) => /timed out/.test(e.error)));
  });

  it('a hung snapshot does not outlive Cancel', async () => {
    const clock = new FakeClock();
    const late: { team?: TeamRun } = {};
    const workspace: AgentWorkspace = {
      snapshot: () => {
        setImmediate(() => late.team!.orchestrator.cancel());
        return never;
      },
    };
    const team = (late.team = runTeam([{ id: 'a', script: () => reply.answer('A'), workspace }], { clock }));
    const result = await team.result;
    assert.equal(result.reason, 'cancelled');
  });
});

describe('a model call that ignores cancellation', () => {
  it('streams nothing into the run once its turn is cancelled, and nothing follows run_ended', async () => {
    const clock = new FakeClock();
    const late: { team?: TeamRun; stream?: (text: string) => void } = {};
    const deaf: ModelProvider = {
      description: 'deaf',
      model: 'deaf',
      complete: (_request, options) => {
        late.stream = (text) => {
          options.onStarted?.();
          options.onDelta?.({ type: 'text', text });
        };
        late.stream('before the cancel');
        setImmediate(() => late.team!.orchestrator.cancel());
        return never;
      },
    };
    const team = (late.team = runTeam([{ id: 'a', script: () => reply.answer('unused'), provider: deaf }], { clock }));
    const result = await team.result;
    late.stream!('after the run ended');
    assert.equal(result.reason, 'cancelled');
    assert.deepEqual(team.of('text_delta').map((e) => e.text), ['before the cancel']);
    assert.equal(team.events.at(-1)?.type, 'run_ended');
  });
});

describe('timeouts beyond the timer range', () => {
  it('an orchestrator timeout of 3,000,000 s does not end the run at once (E5)', async () => {
    const team = runTeam([{ id: 'a', script: (req) => (boardHasAnswers(req) ? reply.vote('agent1') : reply.answer('A', { delayMs: 20 })) }], {
      timeouts: { orchestratorTimeoutSeconds: 3_000_000, agentTurnTimeoutSeconds: 3_000_000 },
    });
    const result = await team.result;
    assert.equal(result.reason, 'consensus');
    assert.deepEqual(team.of('turn_failed'), []);
  });
});
