// Agents' commands in their own copy, sandboxed: what the rest of the code uses. Detect the sandbox once
// (`detectSandbox`), compile the configured patterns (`compileCommandPolicy`), and give each agent a toolbox
// (`createCommandToolbox`) on its copy; `measureStartupCost` is for the benchmark.

export { createCommandToolbox, COMMAND_OUTPUT, EXECUTE_COMMAND, KILL_COMMAND, type ApprovalRequest, type CommandToolboxOptions } from './command-tools';
export { commandEnvironment, isSecretName, looksSecret } from './environment';
export { checkCommand, compileCommandPolicy, DEFAULT_COMMAND_LIMITS, OPEN_POLICY, type CommandLimits, type CommandPatterns, type CommandPolicy } from './policy';
export { detectSandbox, NO_SANDBOX, type SandboxInfo, type SandboxKind } from './sandbox';
export { measureStartupCost, type StartupCost } from './startup-cost';
