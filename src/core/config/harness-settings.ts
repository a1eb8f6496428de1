// Upstream's keys for coding agents' programs (claude_code, codex) as HarnessSettings, and the same keys on a model
// backend warned about, never dropped in silence. What a program does not take here is warned about with the reason.

import { z } from 'zod';
import type { Path, Report } from './report';
import type { HarnessProgram, HarnessSettings } from './types';

/** The schema's keys for the programs (upstream's names, plus `path`). */
export const HarnessKeys = {
  /** Ours: the program's executable (else found on PATH, in its VS Code extension or its SDK's platform package). */
  path: z.string().min(1).nullish(),
  permission_mode: z.enum(['default', 'acceptEdits', 'bypassPermissions', 'plan']).nullish(),
  disallowed_tools: z.array(z.string().min(1)).nullish(),
  max_turns: z.int().positive().nullish(),
  max_thinking_tokens: z.int().positive().nullish(),
  system_prompt: z.string().nullish(),
  append_system_prompt: z.string().nullish(),
  approval_mode: z.enum(['full-auto', 'auto-edit', 'full-access', 'suggest']).nullish(),
  model_reasoning_effort: z.string().min(1).nullish(),
};

type Input = { [K in keyof typeof HarnessKeys]?: z.infer<(typeof HarnessKeys)[K]> } & {
  allowed_tools?: string[] | null;
  reasoning?: { effort?: string | null } | null;
  enable_web_search?: boolean | null;
  mcp_servers?: unknown;
} & { [K in (typeof COMMAND_KEYS)[number]]?: unknown };

/** Upstream's keys for MassGen's own commands, which a program (running its own) does not take. */
const COMMAND_KEYS = ['enable_mcp_command_line', 'command_line_allowed_commands', 'command_line_blocked_commands', 'command_line_execution_mode', 'command_line_docker_network_mode'] as const;

const CLAUDE_ONLY = ['permission_mode', 'disallowed_tools', 'max_turns', 'max_thinking_tokens', 'append_system_prompt'] as const;
const CODEX_ONLY = ['approval_mode', 'model_reasoning_effort'] as const;

export const HARNESS_PROGRAMS: Readonly<Record<HarnessProgram, string>> = { claude_code: 'Claude Code', codex: 'Codex' };

export function isHarnessType(type: string): type is HarnessProgram {
  return Object.hasOwn(HARNESS_PROGRAMS, type.toLowerCase());
}

/** The settings of a claude_code or codex backend; on any other backend, a warning per program key it sets. */
export function harnessSettings(input: Input, type: string, who: string, at: Path, report: Report): HarnessSettings | undefined {
  const backendPath = [...at, 'backend'];
  const program = type.toLowerCase();
  if (!isHarnessType(program)) {
    for (const key of [...CLAUDE_ONLY, ...CODEX_ONLY, 'system_prompt', 'path'] as const) {
      if (input[key] != null) report.warn([...backendPath, key], `${who}: backend.${key} is a setting of coding agents' programs (claude_code, codex); type ${type} ignores it`);
    }
    return undefined;
  }
  const others = program === 'claude_code' ? CODEX_ONLY : CLAUDE_ONLY;
  for (const key of others) {
    if (input[key] != null) report.warn([...backendPath, key], `${who}: backend.${key} is not a setting of ${HARNESS_PROGRAMS[program]}; ignored`);
  }
  if (input.mcp_servers != null) {
    report.warn([...backendPath, 'mcp_servers'], `${who}: ${HARNESS_PROGRAMS[program]} uses the MCP servers of its own configuration here; backend.mcp_servers is ignored`);
  }
  const commandKeys = COMMAND_KEYS.filter((key) => input[key] != null && input[key] !== false && input[key] !== 'none');
  if (commandKeys.length > 0) {
    report.warn([...backendPath, commandKeys[0]], `${who}: ${HARNESS_PROGRAMS[program]} runs its own commands, in its own sandbox: backend.${commandKeys.join(', backend.')} ${commandKeys.length > 1 ? 'are' : 'is'} ignored (their network follows --allow-network or massgen.commands.network)`);
  }
  const settings: HarnessSettings = { program };
  if (input.path) settings.path = input.path;
  if (input.enable_web_search) settings.webSearch = true;
  if (input.system_prompt != null) settings.systemPrompt = input.system_prompt;
  if (program === 'claude_code') {
    if (input.permission_mode === 'bypassPermissions') {
      report.warn([...backendPath, 'permission_mode'], `${who}: permission_mode bypassPermissions would let Claude Code write outside its own copy; acceptEdits is used (edits in its copy, commands in its sandbox)`);
    } else if (input.permission_mode) settings.permissionMode = input.permission_mode;
    if (input.allowed_tools) settings.allowedTools = input.allowed_tools;
    if (input.disallowed_tools) settings.disallowedTools = input.disallowed_tools;
    if (input.max_turns) settings.maxTurns = input.max_turns;
    if (input.max_thinking_tokens) settings.maxThinkingTokens = input.max_thinking_tokens;
    if (input.append_system_prompt != null) settings.appendSystemPrompt = input.append_system_prompt;
  } else {
    if (input.approval_mode && input.approval_mode !== 'full-auto') {
      report.warn([...backendPath, 'approval_mode'], `${who}: approval_mode ${input.approval_mode} is not used: in a team run nobody answers approvals, so Codex works as full-auto, in its workspace-write sandbox on its own copy`);
    }
    const effort = input.model_reasoning_effort ?? input.reasoning?.effort;
    if (effort) settings.reasoningEffort = effort;
  }
  return settings;
}
