// The fake OpenAI and Anthropic servers, bundled to plain JS for the suite running inside the extension host.
export { coordinationScript, startFakeOpenAI } from '../fakes/openai-server';
export { coordinationScript as anthropicScript, startFakeAnthropic } from '../fakes/anthropic-server';
export { startFakeResponses } from '../fakes/openai-responses-server';
// Coding agents (suite/coding-agents.test.js): the scripted models behind the real programs, and where they are.
export { claudeReply, codexReply } from '../harness/scripts';
export { CLAUDE, CODEX } from '../helpers/agent-programs';
export { processesWith } from '../helpers/processes';
