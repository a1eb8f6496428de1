// TEST ONLY: a deterministic chat model (vendor `massgen-fake`, model `fake-agent`) so MassGen's vscode-lm provider,
// chat participant and coordination can run in a real VS Code without Copilot. Installed as a VSIX by the runner.
//
// Default behaviour of every request:
// - tools `new_answer` / `vote` offered (MassGen's coordination protocol): if the answer text (config.answer) is not
//   yet anywhere in the messages, call `new_answer {content: answer}`; otherwise call `vote` for the agent whose
//   `<agentK> … <end of agentK>` block holds that text (agent1 if none does), with a fixed reason.
// - otherwise: plain text, config.text or `FAKE-LM says: <last user message>`.
//
// Tests script it from the same extension host through commands (arguments are passed as is, functions included):
//   massgenFakeLm.configure({ answer, text, delayMs, error, handler, models, chunkSize })  merges; returns the config
//     answer:  string | (req) => string           text for new_answer (default DEFAULT_ANSWER)
//     text:    string | (req) => string           plain-text reply
//     delayMs: number                             wait before replying (cancellation is honoured)
//     error:   'Blocked' | 'NoPermissions' | 'NotFound' | other string   fail every request (LanguageModelError)
//     handler: (req) => reply | undefined         full control; undefined falls back to the default; may throw
//              req = { model, messages: [{role: 'user'|'assistant', text}], tools: [names], toolMode, n }
//              reply = string | { text?: string, toolCalls?: [{ name, input, callId? }] }
//     models:  [{ id, name?, family?, version? }]  replaces the model list (fires the change event)
//     chunkSize: number                           stream text in chunks of this many characters (0 = one part)
//   massgenFakeLm.reset()      back to the defaults, request log cleared
//   massgenFakeLm.requests()   every request so far (req objects above, plus `reply`), oldest first
//
// A chat participant, @fake-tool-caller, stands for Copilot's agent mode: the prompt `{"tool": name, "input": {...}}`
// makes it call vscode.lm.invokeTool with the request's toolInvocationToken (so VS Code shows the tool's confirmation
// inline in the chat), then write the result's text parts, or `TOOL ERROR: <message>`, into the response.
const vscode = require('vscode');

const VENDOR = 'massgen-fake';
const DEFAULT_ANSWER = 'Answer from the fake test model (massgen-fake/fake-agent).';
const VOTE_REASON = 'The fake test model agrees with this answer.';
const modelInfo = (m) => ({
  id: m.id,
  name: m.name || m.id,
  family: m.family || m.id,
  version: m.version || '1.0.0',
  maxInputTokens: m.maxInputTokens || 1000000,
  maxOutputTokens: m.maxOutputTokens || 16000,
  tooltip: 'Deterministic fake model for tests',
  capabilities: { toolCalling: true, imageInput: false },
});
const DEFAULT_MODELS = [{ id: 'fake-agent', name: 'Fake Agent (tests)', family: 'fake-agent' }];

let config = {};
let models = DEFAULT_MODELS;
let requests = [];
const changed = new vscode.EventEmitter();

/** Everything a part says, flattened for substring searches (tool call inputs and tool results included). */
function partText(part) {
  if (part == null) return '';
  if (typeof part === 'string') return part;
  if (typeof part.value === 'string') return part.value;
  if (part.input !== undefined && typeof part.name === 'string') {
    const strings = Object.values(part.input || {}).filter((v) => typeof v === 'string');
    return [`${part.name} ${JSON.stringify(part.input)}`, ...strings].join('\n');
  }
  if (Array.isArray(part.content)) return part.content.map(partText).join('\n');
  return '';
}
const messageText = (m) => (Array.isArray(m.content) ? m.content : [m.content]).map(partText).join('\n');
const roleName = (r) => (r === vscode.LanguageModelChatMessageRole.Assistant ? 'assistant' : r === vscode.LanguageModelChatMessageRole.User ? 'user' : `role-${r}`);
const value = (v, req) => (typeof v === 'function' ? v(req) : v);

function defaultReply(req) {
  const all = req.messages.map((m) => m.text).join('\n');
  if (req.tools.includes('new_answer') || req.tools.includes('vote')) {
    const answer = value(config.answer, req) || DEFAULT_ANSWER;
    if (req.tools.includes('new_answer') && !all.includes(answer)) return { toolCalls: [{ name: 'new_answer', input: { content: answer } }] };
    if (req.tools.includes('vote')) {
      let target = 'agent1';
      for (const m of all.matchAll(/<(agent\d+)>([\s\S]*?)<end of \1>/g)) if (m[2].includes(answer)) { target = m[1]; break; }
      return { toolCalls: [{ name: 'vote', input: { agent_id: target, reason: VOTE_REASON } }] };
    }
    return { toolCalls: [{ name: 'new_answer', input: { content: answer } }] };
  }
  const text = value(config.text, req);
  if (typeof text === 'string') return { text };
  const lastUser = [...req.messages].reverse().find((m) => m.role === 'user');
  return { text: `FAKE-LM says: ${lastUser ? lastUser.text : ''}` };
}

function fail(error) {
  const msg = `fake model failure (${error})`;
  if (['Blocked', 'NoPermissions', 'NotFound'].includes(error)) throw vscode.LanguageModelError[error](msg);
  throw new Error(String(error));
}

const sleep = (ms, token) => new Promise((resolve, reject) => {
  const timer = setTimeout(() => { sub.dispose(); resolve(); }, ms);
  const sub = token.onCancellationRequested(() => { clearTimeout(timer); sub.dispose(); reject(new vscode.CancellationError()); });
});

let callCounter = 0;
const provider = {
  onDidChangeLanguageModelChatInformation: changed.event,
  provideLanguageModelChatInformation: async () => models.map(modelInfo),
  provideLanguageModelChatResponse: async (model, messages, options, progress, token) => {
    const req = {
      n: requests.length + 1,
      model: model.id,
      messages: messages.map((m) => ({ role: roleName(m.role), text: messageText(m) })),
      tools: (options.tools || []).map((t) => t.name),
      toolMode: options.toolMode,
    };
    requests.push(req);
    if (config.delayMs) await sleep(config.delayMs, token);
    if (token.isCancellationRequested) throw new vscode.CancellationError();
    if (config.error) { req.reply = { error: String(config.error) }; fail(config.error); }
    let reply = config.handler ? config.handler(req) : undefined;
    if (reply && typeof reply.then === 'function') reply = await reply;
    if (reply === undefined || reply === null) reply = defaultReply(req);
    if (typeof reply === 'string') reply = { text: reply };
    req.reply = reply;
    if (reply.text) {
      const size = config.chunkSize > 0 ? config.chunkSize : reply.text.length;
      for (let i = 0; i < reply.text.length; i += size) progress.report(new vscode.LanguageModelTextPart(reply.text.slice(i, i + size)));
    }
    for (const call of reply.toolCalls || []) {
      progress.report(new vscode.LanguageModelToolCallPart(call.callId || `fake_call_${++callCounter}`, call.name, call.input || {}));
    }
  },
  provideTokenCount: async (_model, text) => Math.max(1, Math.ceil((typeof text === 'string' ? text : messageText(text)).length / 4)),
};

/** @fake-tool-caller: invokes the tool the prompt names, inside this chat request. */
async function callTool(request, _context, stream, token) {
  try {
    const { tool, input } = JSON.parse(request.prompt);
    const result = await vscode.lm.invokeTool(tool, { input, toolInvocationToken: request.toolInvocationToken }, token);
    for (const part of result.content) if (part instanceof vscode.LanguageModelTextPart) stream.markdown(`${part.value}\n\n`);
  } catch (err) {
    stream.markdown(`TOOL ERROR: ${err && err.message ? err.message : String(err)}`);
  }
  return {};
}

exports.activate = (context) => {
  context.subscriptions.push(
    changed,
    vscode.chat.createChatParticipant('massgen-fake.toolCaller', callTool),
    vscode.lm.registerLanguageModelChatProvider(VENDOR, provider),
    vscode.commands.registerCommand('massgenFakeLm.configure', (patch = {}) => {
      const { models: newModels, ...rest } = patch;
      config = { ...config, ...rest };
      if (newModels) { models = newModels; changed.fire(); }
      return { ...config, models };
    }),
    vscode.commands.registerCommand('massgenFakeLm.reset', () => {
      const hadCustomModels = models !== DEFAULT_MODELS;
      config = {};
      requests = [];
      models = DEFAULT_MODELS;
      if (hadCustomModels) changed.fire();
    }),
    vscode.commands.registerCommand('massgenFakeLm.requests', () => requests.slice()),
  );
};
exports.deactivate = () => {};
exports.VENDOR = VENDOR;
exports.DEFAULT_ANSWER = DEFAULT_ANSWER;
