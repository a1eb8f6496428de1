// Tool names as the model sees them (`mcp__<server>__<tool>`, as upstream), the filters that accept both raw and
// prefixed names, and the heuristic that decides which tools have side effects (approval and planning-mode
// defaults).

import { createHash } from 'node:crypto';

export const MCP_PREFIX = 'mcp__';
/** OpenAI's function-name limit (Anthropic allows more); names are kept within it. */
export const MAX_TOOL_NAME = 64;

/** Characters the providers accept in a tool name; everything else becomes '_'. */
export function sanitizeNamePart(part: string): string {
  return part.replace(/[^A-Za-z0-9_-]/g, '_') || '_';
}

/** `mcp__<server>__<tool>`, sanitized, and shortened with a stable hash when longer than 64 characters. */
export function exposedToolName(server: string, tool: string): string {
  const full = `${MCP_PREFIX}${sanitizeNamePart(server)}__${sanitizeNamePart(tool)}`;
  if (full.length <= MAX_TOOL_NAME) return full;
  const hash = createHash('sha256').update(`${server}\0${tool}`).digest('hex').slice(0, 8);
  return `${full.slice(0, MAX_TOOL_NAME - 9)}_${hash}`;
}

/** True when `listed` (from a config list) names this tool: raw (`read_file`) or prefixed (`mcp__files__read_file`). */
export function nameMatches(listed: string, server: string, tool: string): boolean {
  return listed === tool || listed === `${MCP_PREFIX}${server}__${tool}` || listed === exposedToolName(server, tool);
}

export function listMatches(list: readonly string[] | undefined, server: string, tool: string): boolean {
  return !!list && list.some((l) => nameMatches(l, server, tool));
}

/**
 * Upstream's filter rule, with both name forms: excluded = backend ∪ server exclude lists; when an allow list applies
 * (the server's, else the backend's), only the tools on it pass.
 */
export function toolAllowed(server: string, tool: string, lists: { serverAllowed?: string[]; serverExcluded?: string[]; backendAllowed?: string[]; backendExcluded?: string[] }): boolean {
  if (listMatches(lists.backendExcluded, server, tool) || listMatches(lists.serverExcluded, server, tool)) return false;
  const allowed = lists.serverAllowed ?? lists.backendAllowed;
  return allowed === undefined || listMatches(allowed, server, tool);
}

/** Words that mark a tool as changing something wherever they appear in its name (write_file, bulk_delete). */
const STRONG_WORDS = new Set([
  'write', 'overwrite', 'append', 'delete', 'del', 'remove', 'rm', 'rmdir', 'unlink', 'drop', 'truncate', 'purge',
  'destroy', 'erase', 'wipe', 'execute', 'exec', 'eval', 'shell', 'bash', 'spawn', 'kill', 'terminate', 'move', 'mv',
  'rename', 'replace', 'uninstall', 'deploy', 'publish', 'push', 'send', 'pay', 'transfer', 'charge', 'refund',
]);
/** Verbs that mark a change unless the name starts with a reading verb (create_issue, but not get_update_status). */
const WEAK_WORDS = new Set([
  'save', 'store', 'edit', 'modify', 'update', 'upsert', 'patch', 'put', 'post', 'set', 'insert', 'create', 'mkdir',
  'make', 'add', 'clear', 'reset', 'copy', 'cp', 'run', 'stop', 'start', 'restart', 'shutdown', 'reboot', 'install',
  'release', 'commit', 'merge', 'rebase', 'checkout', 'notify', 'tweet', 'reply', 'invite', 'upload', 'submit', 'buy',
  'cancel', 'approve', 'reject', 'archive', 'assign', 'grant', 'revoke', 'lock', 'unlock', 'enable', 'disable',
  'toggle', 'trigger', 'apply', 'sync', 'chmod', 'chown', 'fork',
]);
const READ_WORDS = new Set([
  'get', 'list', 'read', 'search', 'find', 'fetch', 'query', 'describe', 'show', 'view', 'lookup', 'count', 'check',
  'inspect', 'stat', 'browse', 'echo', 'preview', 'explain', 'diff', 'compare', 'validate', 'is', 'has',
]);

/** Splits `write_file`, `deleteItem`, `run-query`, `mcp__x__y` into lower-case words. */
export function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w.toLowerCase());
}

export interface ToolAnnotationsLike {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
}

/**
 * Whether a tool probably changes something outside the conversation: its name says so (write, delete, execute,
 * remove, move, create, send…), or the server says so (`readOnlyHint: false` or `destructiveHint: true`). A
 * `readOnlyHint: true` does not clear a tool whose name says otherwise.
 */
export function isSideEffecting(tool: string, annotations?: ToolAnnotationsLike): boolean {
  const words = nameWords(tool);
  if (words.some((w) => STRONG_WORDS.has(w))) return true;
  if (!READ_WORDS.has(words[0] ?? '') && words.some((w) => WEAK_WORDS.has(w))) return true;
  return annotations?.readOnlyHint === false || annotations?.destructiveHint === true;
}
