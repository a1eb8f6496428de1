'use strict';
// The fake model itself: what the MassGen tests rely on (coordination protocol replies, scripting).
const vscode = require('vscode');
const { assert, FAKE_DEFAULT_ANSWER, waitForFakeModel, fakeLm } = require('./helpers');

const TOOLS = [
  { name: 'new_answer', description: 'Provide an improved answer', inputSchema: { type: 'object', properties: { content: { type: 'string' } }, required: ['content'] } },
  { name: 'vote', description: 'Vote for the best agent', inputSchema: { type: 'object', properties: { agent_id: { type: 'string' }, reason: { type: 'string' } }, required: ['agent_id', 'reason'] } },
];
const User = (text) => vscode.LanguageModelChatMessage.User(text);

async function send(model, messages, options = {}) {
  const response = await model.sendRequest(messages, { justification: 'tests', ...options }, new vscode.CancellationTokenSource().token);
  const parts = [];
  for await (const part of response.stream) parts.push(part);
  return {
    text: parts.filter((p) => p instanceof vscode.LanguageModelTextPart).map((p) => p.value).join(''),
    calls: parts.filter((p) => p instanceof vscode.LanguageModelToolCallPart).map((p) => ({ name: p.name, input: p.input })),
  };
}

describe('fake chat model (test helper)', () => {
  let model;
  before(async () => { [model] = await waitForFakeModel(); });
  afterEach(() => fakeLm.reset());

  it('answers plain text without tools', async () => {
    const r = await send(model, [User('hello')]);
    assert.strictEqual(r.text, 'FAKE-LM says: hello');
    assert.deepStrictEqual(r.calls, []);
  });

  it('calls new_answer while its answer is not in the conversation', async () => {
    const r = await send(model, [User('<ORIGINAL MESSAGE> What is 6*7? <END OF ORIGINAL MESSAGE>')], { tools: TOOLS });
    assert.deepStrictEqual(r.calls, [{ name: 'new_answer', input: { content: FAKE_DEFAULT_ANSWER } }]);
  });

  it('votes for the agent whose answer it sees', async () => {
    const board = `<agent1>\nsomething else\n<end of agent1>\n<agent2>\n${FAKE_DEFAULT_ANSWER}\n<end of agent2>`;
    const r = await send(model, [User(`What is 6*7?\n${board}`)], { tools: TOOLS });
    assert.strictEqual(r.calls.length, 1);
    assert.strictEqual(r.calls[0].name, 'vote');
    assert.strictEqual(r.calls[0].input.agent_id, 'agent2');
  });

  it('is scriptable: answer text, handler, request log', async () => {
    await fakeLm.configure({ answer: 'forty-two' });
    let r = await send(model, [User('q')], { tools: TOOLS });
    assert.deepStrictEqual(r.calls[0].input, { content: 'forty-two' });
    await fakeLm.configure({ handler: (req) => (req.tools.length ? undefined : `seen ${req.messages.length} message(s)`) });
    r = await send(model, [User('a'), vscode.LanguageModelChatMessage.Assistant('b'), User('c')]);
    assert.strictEqual(r.text, 'seen 3 message(s)');
    const log = await fakeLm.requests();
    assert.strictEqual(log.length, 2);
    assert.deepStrictEqual(log[0].tools, ['new_answer', 'vote']);
    assert.deepStrictEqual(log[1].messages.map((m) => m.role), ['user', 'assistant', 'user']);
  });

  it('fails on request with a LanguageModelError when told to', async () => {
    await fakeLm.configure({ error: 'Blocked' });
    await assert.rejects(send(model, [User('x')]), (e) => e instanceof vscode.LanguageModelError || /Blocked|fake model failure/.test(String(e)));
  });
});
