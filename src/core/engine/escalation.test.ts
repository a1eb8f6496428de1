import assert from 'node:assert/strict';
import { escalationTrigger, Stages, stagesFor, type StagePicture } from './escalation';

const picture = (over: Partial<StagePicture>): StagePicture => ({ votes: ['agent1.1', 'agent1.1'], failedSinceStageStart: 0, capped: false, minAgreeing: 1, failsChecks: () => false, ...over });

describe('escalation: the stage rule', () => {
  it('lets the stage end when every live agent votes for one version, enough of them, passing the checks', () => {
    assert.equal(escalationTrigger(picture({})), null);
    assert.equal(escalationTrigger(picture({ minAgreeing: 2 })), null);
  });

  it('names the reason to call the next stage', () => {
    assert.equal(escalationTrigger(picture({ votes: ['agent1.1', 'agent2.1'] })), 'disagreement');
    assert.equal(escalationTrigger(picture({ votes: ['agent1.1', 'agent2.1'], capped: true })), 'vote_cap', 'vote-only agents that still disagree');
    assert.equal(escalationTrigger(picture({ votes: ['agent1.1', null], capped: true })), 'vote_cap', 'the round cap came before every vote');
    assert.equal(escalationTrigger(picture({ votes: ['agent1.1'], failedSinceStageStart: 1 })), 'agent_failed');
    assert.equal(escalationTrigger(picture({ votes: [] })), 'agent_failed', 'no live agent left');
    assert.equal(escalationTrigger(picture({ minAgreeing: 3 })), 'min_agreeing');
    assert.equal(escalationTrigger(picture({ failsChecks: (label) => label === 'agent1.1' })), 'failing_check');
  });

  it('takes a failure before a disagreement, and a disagreement before the floor and the checks', () => {
    assert.equal(escalationTrigger(picture({ votes: ['agent1.1', 'agent2.1'], failedSinceStageStart: 1 })), 'agent_failed');
    assert.equal(escalationTrigger(picture({ votes: ['agent1.1', 'agent2.1'], minAgreeing: 3, failsChecks: () => true })), 'disagreement');
    assert.equal(escalationTrigger(picture({ minAgreeing: 3, failsChecks: () => true })), 'min_agreeing');
  });
});

describe('escalation: stages', () => {
  it('walks the stages in order and refuses to go past the last', () => {
    const stages = new Stages({ stages: [['a', 'b'], ['c'], ['d']], minAgreeing: 1 });
    assert.deepEqual([stages.stage, stages.first(), stages.hasNext], [1, ['a', 'b'], true]);
    assert.deepEqual(stages.advance(), ['c']);
    assert.deepEqual(stages.advance(), ['d']);
    assert.deepEqual([stages.stage, stages.hasNext], [3, false]);
    assert.throws(() => stages.advance(), /no stage left/);
  });
});

describe('escalation: stages over the run\'s agents', () => {
  const config = { stages: [['a', 'b'], ['c']], minAgreeing: 2 };
  it('keeps the configured stages when the run has the whole team', () => {
    assert.deepEqual(stagesFor(config, ['a', 'b', 'c']), config);
  });
  it('drops ids the run lacks and adds unlisted agents as a last stage', () => {
    assert.deepEqual(stagesFor(config, ['a', 'c', 'd']), { stages: [['a'], ['c'], ['d']], minAgreeing: 2 });
  });
  it('is off with one stage left (one member run alone) or none configured', () => {
    assert.equal(stagesFor(config, ['c']), null);
    assert.equal(stagesFor(config, ['a', 'b']), null);
    assert.equal(stagesFor(undefined, ['a', 'b']), null);
  });
});
