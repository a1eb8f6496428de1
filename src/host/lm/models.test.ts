import assert from 'node:assert/strict';
import { lmModelSpec, noChatModelsMessage, parseLmModelSpec, selectLmModels } from './models';
import { fakeLm, fakeModel } from '../../../test/fakes/vscode-lm';

describe('vscode.lm model selection helpers', () => {
  it('selectLmModels passes the selector (none for an empty one) and returns the models', async () => {
    const models = [fakeModel({ family: 'gpt-4o' }), fakeModel({ family: 'claude-sonnet-4' })];
    const lm = fakeLm(models);
    assert.deepEqual(await selectLmModels(lm), models);
    assert.deepEqual(await selectLmModels(lm, {}), models);
    assert.deepEqual(await selectLmModels(lm, { family: 'claude-sonnet-4' }), [models[1]]);
    assert.deepEqual(lm.selectors, [undefined, undefined, { family: 'claude-sonnet-4' }]);
    assert.deepEqual(await selectLmModels(fakeLm([])), []);
  });

  it('noChatModelsMessage says what to do', () => {
    const message = noChatModelsMessage();
    assert.match(message, /No VS Code chat models are available/);
    assert.match(message, /Sign in to GitHub Copilot/);
    assert.match(message, /massgen\.agents/);
    const filtered = noChatModelsMessage({ vendor: 'copilot', family: 'o9' });
    assert.match(filtered, /No VS Code chat model matches copilot\/o9/);
    assert.match(filtered, /massgen\.agents/);
  });

  it('parses and prints vendor/family model specs', () => {
    assert.deepEqual(parseLmModelSpec('copilot/gpt-4o'), { vendor: 'copilot', family: 'gpt-4o' });
    assert.deepEqual(parseLmModelSpec('gpt-4o'), { family: 'gpt-4o' });
    assert.deepEqual(parseLmModelSpec('copilot/*'), { vendor: 'copilot' });
    assert.deepEqual(parseLmModelSpec(''), {});
    assert.deepEqual(parseLmModelSpec('auto'), {});
    assert.deepEqual(parseLmModelSpec(undefined), {});
    assert.equal(lmModelSpec(fakeModel({ vendor: 'copilot', family: 'gpt-4o' })), 'copilot/gpt-4o');
  });
});
