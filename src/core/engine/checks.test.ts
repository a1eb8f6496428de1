// The engine with the project's checks (through the AnswerChecks port): results bound to each version before it
// joins the board, shown to voters and to the author, and, under gate, deciding against the votes.

import assert from 'node:assert/strict';
import { reply, requestText, type Script } from '../providers/scripted';
import { sleep } from '../util/sleep';
import { boardHasAnswers, runTeam } from '../../../test/helpers/test-team';
import type { CheckResult } from './events';
import type { AgentWorkspace, AnswerChecks } from './ports';

const FAILURE = 'AssertionError: add(2, 3) expected 5, got -1\n1 failing';

/** Each agent's copy holds the change named in `trees`; a snapshot records it. */
function copy(tree: string): AgentWorkspace {
  return { snapshot: async () => ({ id: tree, files: [{ path: 'src/add.js', status: 'modified', added: 1, removed: 1 }], bytesWritten: 10 }) };
}

/** Checks that pass on the trees in `passing` and fail elsewhere, taking `delayMs`. */
function fakeChecks(mode: 'inform' | 'gate', passing: string[], delayMs = 0): AnswerChecks & { checked: string[] } {
  const checked: string[] = [];
  return {
    mode,
    names: ['tests'],
    checked,
    async run(version, signal, onResult) {
      checked.push(version.label);
      const ok = passing.includes(version.change.id);
      try {
        await sleep(delayMs, signal);
      } catch {
        const r: CheckResult = { name: 'tests', required: true, status: 'cancelled', exitCode: null, durationMs: 0, output: '', cached: false };
        onResult(r);
        return [r];
      }
      const r: CheckResult = { name: 'tests', required: true, status: ok ? 'passed' : 'failed', exitCode: ok ? 0 : 1, durationMs: delayMs, output: ok ? '3 passing' : FAILURE, cached: false };
      onResult(r);
      return [r];
    },
  };
}

/** Answers first, then votes for `target`. */
const answerThenVote = (content: string, target: string): Script => (req) => (boardHasAnswers(req) ? reply.vote(target, 'looks right') : reply.answer(content));

describe('engine: checks count with the votes', () => {
  it('gate: the majority votes for a change the tests reject; the passing answer wins, and voters were shown the failure', async () => {
    const checks = fakeChecks('gate', ['tree-right']);
    const team = runTeam(
      [
        { id: 'a', script: answerThenVote('Fixed add() by swapping the operands.', 'agent1'), workspace: copy('tree-wrong') },
        { id: 'b', script: answerThenVote('Fixed add(): it now adds.', 'agent1'), workspace: copy('tree-right') },
        { id: 'c', script: answerThenVote('Swapped the operands of add().', 'agent1'), workspace: copy('tree-wrong-too') },
      ],
      { checks },
    );
    const result = await team.result;
    assert.equal(result.winnerLabel, 'agent2.1');
    const [winner] = team.of('winner_selected');
    assert.deepEqual(winner.votes, { a: 3 });
    assert.deepEqual(winner.verification, { status: 'passed', overruled: { label: 'agent1.1', failed: ['tests'] } });
    for (const id of ['a', 'b', 'c']) {
      const voting = team.requests(id).filter(boardHasAnswers).map(requestText);
      assert.ok(voting.length > 0);
      assert.match(voting[voting.length - 1], /\[Checks on agent1's change: tests FAILED \(exit 1\)\]\nOutput of tests \(its end\):\nAssertionError: add\(2, 3\) expected 5, got -1/, `${id} was shown agent1's failure`);
      // The author sees its own answer by reference (it is in its new_answer call), with its failing checks.
      const own = id === 'a' ? /<agent1> your own answer agent1\.1, as in your new_answer call above\n\[Changed files .*\]\n\[Checks on agent1's change: tests FAILED/ : /<agent1> Fixed add\(\) by swapping the operands\.\n\[Changed files .*\]\n\[Checks on agent1's change/;
      assert.match(voting[voting.length - 1], own);
      assert.match(voting[voting.length - 1], /\[Checks on agent2's change: tests passed\]/);
    }
    assert.match(team.requests('a')[0].system!, /MassGen runs the project's checks \(`tests`\) on every answer's change.*cannot win while another passes/s);
    // The checks ran on every version before it joined the board, and their events came first.
    assert.deepEqual(checks.checked.sort(), ['agent1.1', 'agent2.1', 'agent3.1']);
    const seq = (type: string, label: string) => team.events.find((e) => 'label' in e && e.label === label && e.type === type)!.seq;
    assert.ok(seq('check_finished', 'agent1.1') < seq('answer_added', 'agent1.1'));
  });

  it('the author learns of its own failure in the reply to its new_answer', async () => {
    const checks = fakeChecks('inform', []);
    const team = runTeam([{ id: 'a', script: answerThenVote('Done.', 'agent1'), workspace: copy('tree-wrong') }], { checks });
    await team.result;
    const second = team.requests('a')[1];
    const toolReply = second.messages.find((m) => m.role === 'tool')!;
    assert.match(toolReply.content, /^Your answer was recorded as agent1\.1, but not every check passed on it:\n\[Checks on agent1\.1's change: tests FAILED \(exit 1\)\]/);
    assert.match(toolReply.content, /Fix it in a new answer, or vote for an answer whose checks pass\./);
  });

  it('gate with nothing passing: the voted answer wins, flagged as failed; inform never overrules the votes', async () => {
    for (const mode of ['gate', 'inform'] as const) {
      const team = runTeam(
        [
          { id: 'a', script: answerThenVote('One.', 'agent1'), workspace: copy(mode === 'gate' ? 'tree-1' : 'tree-wrong') },
          { id: 'b', script: answerThenVote('Two.', 'agent1'), workspace: copy(mode === 'gate' ? 'tree-2' : 'tree-right') },
        ],
        { checks: fakeChecks(mode, mode === 'gate' ? [] : ['tree-right']) },
      );
      const result = await team.result;
      assert.equal(result.winnerLabel, 'agent1.1', mode);
      assert.deepEqual(team.of('winner_selected')[0].verification, { status: 'failed' }, mode);
    }
  });

  // The checks below take an hour: a run that ends at all within the test's timeout did not wait for them.
  const AN_HOUR = 3_600_000;

  it('the run ending while checks run stops the wait at once', async () => {
    const checks = fakeChecks('gate', ['x'], AN_HOUR);
    const team = runTeam([{ id: 'a', script: answerThenVote('Slow to check.', 'agent1'), workspace: copy('x') }], { checks, timeouts: { orchestratorTimeoutSeconds: 0.3 } });
    const result = await team.result;
    assert.equal(result.reason, 'timeout');
    assert.equal(team.of('answer_added').length, 0, 'an answer whose checks never finished does not join the board');
    assert.equal(team.of('check_finished')[0].result.status, 'cancelled');
  });

  it('an agent cancelled while its checks run: they are stopped before the run ends, not left running in its copy', async () => {
    const slow = fakeChecks('inform', [], AN_HOUR);
    const quick = fakeChecks('inform', ['fast']);
    let checkSignal: AbortSignal | undefined;
    const mixed: AnswerChecks = {
      ...quick,
      run: (version, signal, onResult) => {
        if (version.change.id !== 'slow') return quick.run(version, signal, onResult);
        checkSignal = signal;
        return slow.run(version, signal, onResult);
      },
    };
    const team = runTeam(
      [
        { id: 'a', script: answerThenVote('Slow to check.', 'agent2'), workspace: copy('slow') },
        { id: 'b', script: answerThenVote('Quick to check.', 'agent2'), workspace: copy('fast') },
      ],
      { checks: mixed },
    );
    while (!checkSignal) await sleep(5, new AbortController().signal);
    team.orchestrator.cancelAgent('a');
    const result = await team.result;
    assert.equal(result.winnerLabel, 'agent2.1');
    assert.equal(checkSignal.aborted, true, 'the cancelled agent\'s check was stopped');
    const types = team.events.map((e) => e.type);
    const cancelled = team.of('check_finished').find((e) => e.label === 'agent1.1');
    assert.equal(cancelled?.result.status, 'cancelled');
    assert.ok(types.lastIndexOf('check_finished') < types.indexOf('run_ended'), 'no check reports after run_ended');
  });

  it('a turn that times out during the checks still gets its answer in, with its results', async () => {
    const checks = fakeChecks('inform', ['x'], 600);
    const team = runTeam([{ id: 'a', script: answerThenVote('Worth the wait.', 'agent1'), workspace: copy('x') }], { checks, timeouts: { agentTurnTimeoutSeconds: 0.2 } });
    const result = await team.result;
    assert.equal(result.winnerLabel, 'agent1.1');
    assert.equal(team.of('turn_failed').length, 0);
    assert.deepEqual(team.of('winner_selected')[0].verification, { status: 'passed' });
  });
});
