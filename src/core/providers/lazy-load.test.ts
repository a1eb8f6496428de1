// Each SDK is loaded only when a backend needs it (factory.ts): the Anthropic SDK brings OpenTelemetry along, and the
// extension and the CLI pay for every module they load at start-up. Checked in a fresh Node process, whose
// require.cache lists every module a run has loaded.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import type { ProviderFamily } from '../config/types';

const FACTORY = resolve(__dirname, 'factory.ts');
const OPENAI_SDK = /[\\/]node_modules[\\/]openai[\\/]/;
const ANTHROPIC_SDK = /[\\/]node_modules[\\/]@anthropic-ai[\\/]sdk[\\/]/;
const GOOGLE_SDK = /[\\/]node_modules[\\/]@google[\\/]genai[\\/]/;

/** The module paths a fresh process has loaded after building a provider of `family` (none: only loading factory.ts). */
async function modulesLoadedFor(family?: ProviderFamily): Promise<string[]> {
  const script = [
    `const { createProvider } = require(${JSON.stringify(FACTORY)});`,
    family ? `createProvider({ id: 'a', backend: { type: 'x', family: ${JSON.stringify(family)}, model: 'm', apiKey: 'k' } });` : '',
    'process.stdout.write(JSON.stringify(Object.keys(require.cache)));',
  ].join('\n');
  const { stdout } = await promisify(execFile)(process.execPath, ['--require', 'tsx/cjs', '-e', script], { cwd: resolve(__dirname, '../../..') });
  return JSON.parse(stdout) as string[];
}

/** Fails naming the first of the loaded modules that `sdk` matches (listing them all would run to hundreds of lines). */
function assertNotLoaded(loaded: string[], sdk: RegExp): void {
  const leaked = loaded.filter((path) => sdk.test(path));
  assert.equal(leaked.length, 0, `${leaked.length} modules of that SDK were loaded, the first: ${leaked[0]}`);
}

describe('provider SDKs load lazily', () => {
  it('a Claude-only run loads the Anthropic SDK and not the OpenAI SDK', async () => {
    const loaded = await modulesLoadedFor('anthropic');
    assert.ok(loaded.some((path) => ANTHROPIC_SDK.test(path)), 'the Anthropic SDK was not loaded at all');
    assertNotLoaded(loaded, OPENAI_SDK);
    assertNotLoaded(loaded, GOOGLE_SDK);
  });

  it('a Gemini-only run loads the Google GenAI SDK and neither of the others', async () => {
    const loaded = await modulesLoadedFor('gemini');
    assert.ok(loaded.some((path) => GOOGLE_SDK.test(path)), 'the Google GenAI SDK was not loaded at all');
    assertNotLoaded(loaded, OPENAI_SDK);
    assertNotLoaded(loaded, ANTHROPIC_SDK);
  });

  it('an OpenAI-compatible run loads the OpenAI SDK and not the Anthropic SDK', async () => {
    const loaded = await modulesLoadedFor('openai-compatible');
    assert.ok(loaded.some((path) => OPENAI_SDK.test(path)), 'the OpenAI SDK was not loaded at all');
    assertNotLoaded(loaded, ANTHROPIC_SDK);
    assertNotLoaded(loaded, GOOGLE_SDK);
  });

  it('loading the factory loads neither SDK', async () => {
    const loaded = await modulesLoadedFor();
    assert.ok(loaded.some((path) => path.endsWith('factory.ts')), 'the factory was not loaded');
    assertNotLoaded(loaded, OPENAI_SDK);
    assertNotLoaded(loaded, ANTHROPIC_SDK);
    assertNotLoaded(loaded, GOOGLE_SDK);
  });
});
