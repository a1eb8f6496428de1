import assert from 'node:assert/strict';
import { PERSONAS } from '../../core/config/discover';
import { noChatModelsMessage } from './models';
import { pickLmTeam } from './team';
import { fakeModel } from '../../../test/fakes/vscode-lm';

describe('pickLmTeam', () => {
  it('picks three distinct models, spread across model lines, without personas', () => {
    const models = [
      fakeModel({ family: 'gpt-4o' }),
      fakeModel({ family: 'gpt-4.1' }),
      fakeModel({ family: 'claude-sonnet-4' }),
      fakeModel({ family: 'gemini-2.5-pro' }),
    ];
    const team = pickLmTeam(models);
    assert.deepEqual(team.map((a) => a.model.family), ['gpt-4o', 'claude-sonnet-4', 'gemini-2.5-pro']);
    assert.deepEqual(team.map((a) => a.id), ['gpt-4o', 'claude-sonnet-4', 'gemini-2-5-pro']);
    assert.ok(team.every((a) => a.personaSystemMessage === undefined));
  });

  it('fills from the same line when there are not enough lines', () => {
    const team = pickLmTeam([fakeModel({ family: 'gpt-4o' }), fakeModel({ family: 'gpt-4.1' }), fakeModel({ family: 'gpt-5' })]);
    assert.deepEqual(team.map((a) => a.model.family), ['gpt-4o', 'gpt-4.1', 'gpt-5']);
  });

  it('one model → three agents on it with the three personas', () => {
    const only = fakeModel({ family: 'gpt-4o' });
    const team = pickLmTeam([only]);
    assert.equal(team.length, 3);
    assert.ok(team.every((a) => a.model === only));
    assert.deepEqual(team.map((a) => a.personaSystemMessage), PERSONAS.slice(0, 3).map((p) => p.systemMessage));
    assert.deepEqual(team.map((a) => a.id), PERSONAS.slice(0, 3).map((p) => `gpt-4o-${p.id}`));
  });

  it('two models → A, B, A, every agent with its own persona', () => {
    const a = fakeModel({ family: 'gpt-4o' });
    const b = fakeModel({ family: 'claude-sonnet-4' });
    const team = pickLmTeam([a, b]);
    assert.deepEqual(team.map((x) => x.model), [a, b, a]);
    assert.deepEqual(team.map((x) => x.personaSystemMessage), PERSONAS.slice(0, 3).map((p) => p.systemMessage));
    assert.equal(new Set(team.map((x) => x.id)).size, 3);
  });

  it('treats the same vendor/family twice as one model, and puts the preferred model first', () => {
    const a = fakeModel({ family: 'gpt-4o', id: 'one' });
    const a2 = fakeModel({ family: 'gpt-4o', id: 'two' });
    const b = fakeModel({ family: 'claude-sonnet-4' });
    const c = fakeModel({ family: 'gemini-2.5-pro' });
    assert.equal(pickLmTeam([a, a2]).filter((x) => x.model === a).length, 3);
    const team = pickLmTeam([a, b, c], { preferred: c });
    assert.deepEqual(team.map((x) => x.model), [c, a, b]);
    assert.equal(pickLmTeam([a, b, c], { teamSize: 2 }).length, 2);
  });

  it('throws the no-models message when there is no model', () => {
    assert.throws(() => pickLmTeam([]), (e: Error) => e.message === noChatModelsMessage());
  });
});
