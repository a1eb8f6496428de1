// A coding agent's program as the provider of its agent: found (binaries.ts), given its environment (its own key and
// base URL, nothing else of ours) and its folder, and driven through its SDK, which is loaded when a session opens.

import type { AgentConfig } from '../config/types';
import type { AgentToolbox } from '../engine/ports';
import { CLAUDE_CODE_DEFAULT_MODEL } from '../config/backends';
import { locateProgram, notFoundMessage } from './binaries';
import { claudeDriver, movedLogins } from './claude-driver';
import { codexDriver } from './codex-driver';
import { programEnvironment } from './environment';
import { HarnessProvider } from './harness-provider';

/** Settings that keep a headless Claude Code quiet: no update checks, telemetry or error reports. */
const CLAUDE_QUIET = { CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', DISABLE_TELEMETRY: '1', DISABLE_AUTOUPDATER: '1', DISABLE_ERROR_REPORTING: '1' };

export interface HarnessWiring {
  /** The agent's folder (its copy, scratch folder or a folder of its own), known once the run has made it. */
  cwd: () => string;
  /** Its read-only file tools over the run's shared folders, if the run has files (see reading-tools.ts). */
  reading?: () => AgentToolbox | undefined;
  /** Its commands may use the network (the user's setting for commands: --allow-network, massgen.commands.network). */
  network: boolean;
  env: NodeJS.ProcessEnv;
  home: string;
}

/** Throws, in words a user can act on, when the program cannot be found. */
export function createHarnessProvider(agent: AgentConfig, wiring: HarnessWiring): HarnessProvider {
  const { backend } = agent;
  const settings = backend.harness;
  if (!settings) throw new Error(`agent '${agent.id}' has no program settings`);
  const location = locateProgram(settings.program, { configured: settings.path, env: wiring.env, home: wiring.home });
  if (!location) throw new Error(notFoundMessage(agent));
  const model = backend.model === CLAUDE_CODE_DEFAULT_MODEL ? undefined : backend.model;
  if (settings.program === 'claude_code') {
    // Its sandbox hides the key from its commands (sandboxSettings). CLAUDE_CODE_SUBPROCESS_ENV_SCRUB would too, but it
    // also makes package.json and lockfiles read-only to Claude Code's commands and leaves an empty placeholder of each
    // missing one in the copy (an empty package.json broke the project's check), so it is not set.
    const env = programEnvironment('claude_code', wiring.env, { ...CLAUDE_QUIET, ANTHROPIC_API_KEY: backend.apiKey, ANTHROPIC_BASE_URL: backend.baseUrl });
    return new HarnessProvider(claudeDriver({ program: location.path, model, cwd: wiring.cwd, env, network: wiring.network, logins: movedLogins(wiring.env), settings }), wiring.reading);
  }
  const env = programEnvironment('codex', wiring.env, {});
  return new HarnessProvider(codexDriver({ program: location.path, model: backend.model, cwd: wiring.cwd, env, network: wiring.network, apiKey: backend.apiKey, baseUrl: backend.baseUrl, settings }), wiring.reading);
}
