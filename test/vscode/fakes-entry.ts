// The fake OpenAI and Anthropic servers, bundled to plain JS for the suite running inside the extension host.
export { coordinationScript, startFakeOpenAI } from '../fakes/openai-server';
export { coordinationScript as anthropicScript, startFakeAnthropic } from '../fakes/anthropic-server';
