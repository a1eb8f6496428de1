// The tool kit, the twin of the provider kit (providers/http-errors.ts): a toolbox is declared as tools, each a spec
// (what the model is offered), a zod schema for its arguments and a `run`, and the kit does what every toolbox must
// do alike, in one wording: the unknown-tool message, the toolbox's own refusal (the run has ended), cancel before
// the call, JSON parsing and schema validation (arguments.ts), the race against the signal (util/abort.ts), the output
// cap, and errors as results. `execute` never throws and never names a host path; a tool's `run` may throw.

import type { z } from 'zod';
import { raceAbort } from '../util/abort';
import { errorMessage } from '../util/errors';
import { hideUrlSecrets } from '../util/url';
import { parseArguments } from './arguments';
import { failed, type ToolCall, type ToolResult, type ToolSpec } from './types';

/** A backstop for the whole result: tools cut their own output finer (read_file's pages, command output). */
export const DEFAULT_MAX_OUTPUT_CHARS = 200_000;

export interface ToolDef<A = unknown> {
  spec: ToolSpec;
  /** The arguments' schema: `ANY_OBJECT` (arguments.ts) when someone else validates them, like an MCP server. */
  args: z.ZodType<A>;
  /** The call itself, with validated arguments. Failures it words itself go back as results; a throw is caught. */
  run(args: A, signal: AbortSignal): Promise<ToolResult> | ToolResult;
  /** Characters of result the model gets at most (default: the toolbox's). */
  maxOutputChars?: number;
}

/** One tool, typed: `run` takes what `args` validates. */
export function tool<A>(def: ToolDef<A>): ToolDef<A> {
  return def;
}

export interface ToolboxOptions {
  /** Names the tools in the unknown-tool message: "the file tools are read_file, …". */
  family: string;
  /** The tools; a function when the list changes (an MCP server's tools exist only once it has started). */
  tools: readonly ToolDef[] | (() => readonly ToolDef[]);
  /** Valid arguments, shown when the model sends malformed JSON, e.g. `{"path": "src/index.ts"}`. */
  example?: string;
  /** Why a call that is cancelled did not run (default "the run was cancelled"). */
  cancelled?: string;
  /** A reason of the toolbox's own to refuse every call (it was closed), checked before anything else runs. */
  refusal?(): string | undefined;
  /** An unexpected error in words, without host paths or secrets (default: "an unexpected error occurred (…)"). */
  describeError?(err: unknown, args: unknown): string;
  maxOutputChars?: number;
}

/** A toolbox's calls; spread it into the toolbox and add `start` and `close` where it has them. */
export interface ToolCalls {
  readonly tools: ToolSpec[];
  execute(call: ToolCall, signal: AbortSignal): Promise<ToolResult>;
}

export function defineToolbox(options: ToolboxOptions): ToolCalls {
  const { tools } = options;
  const list = typeof tools === 'function' ? tools : () => tools;
  const specs = typeof tools === 'function' ? undefined : tools.map((t) => t.spec);
  return {
    get tools() {
      return specs ?? list().map((t) => t.spec);
    },
    execute: (call, signal) => execute(list(), options, call, signal),
  };
}

async function execute(tools: readonly ToolDef[], options: ToolboxOptions, call: ToolCall, signal: AbortSignal): Promise<ToolResult> {
  const name = String(call?.name);
  const found = tools.find((t) => t.spec.name === name);
  if (!found) return { ok: false, content: unknownTool(name, options.family, tools) };
  const refusal = options.refusal?.();
  if (refusal) return failed(name, refusal);
  const cancelled = failed(name, options.cancelled ?? 'the run was cancelled');
  if (signal.aborted) return cancelled;
  const parsed = parseArguments(name, call.arguments, found.args, options.example);
  if (!parsed.ok) return parsed.result;
  let result: ToolResult;
  try {
    // Raced, so a `run` that ignores its signal cannot keep the turn waiting; through a promise, so a `run` that
    // throws before its first await is caught the same way.
    result = await raceAbort(Promise.resolve().then(() => found.run(parsed.args, signal)), signal);
  } catch (err) {
    if (signal.aborted) return cancelled;
    return failed(name, (options.describeError ?? unexpectedError)(err, parsed.args));
  }
  return { ok: result.ok, content: capOutput(result.content, found.maxOutputChars ?? options.maxOutputChars ?? DEFAULT_MAX_OUTPUT_CHARS) };
}

function unknownTool(name: string, family: string, tools: readonly ToolDef[]): string {
  const names = tools.slice(0, 30).map((t) => t.spec.name);
  return `unknown tool "${name}"; the ${family} are ${names.length ? names.join(', ') : '(none available)'}`;
}

/** A system error's message names host paths, so only its code is shown; URLs lose their credentials. */
function unexpectedError(err: unknown): string {
  const code = (err as { code?: unknown } | undefined)?.code;
  return `an unexpected error occurred (${typeof code === 'string' ? code : hideUrlSecrets(errorMessage(err))})`;
}

/** `text` cut to `max` characters, with a note saying how much there was and how to get less. */
export function capOutput(text: string, max: number): string {
  if (text.length <= max) return text;
  // Leave room for the note, and never split a surrogate pair.
  let cut = Math.max(0, max - 160);
  const code = text.charCodeAt(cut - 1);
  if (code >= 0xd800 && code <= 0xdbff) cut--;
  return `${text.slice(0, cut)}\n[truncated: the tool result was ${text.length} characters; showing the first ${cut}. Ask for less (a narrower query, a range, a smaller file) to see the rest.]`;
}
