// A tool call's arguments, from the model's raw JSON text to typed values: parsed, checked to be an object, then
// validated by the tool's zod schema. Every problem comes back in words that name the bad field and what it must be,
// so the model can correct the call; nothing here throws.

import { z } from 'zod';
import { failed, type ToolResult } from './types';

/** For tools whose arguments someone else validates (an MCP server, against its own JSON Schema): any JSON object. */
export const ANY_OBJECT = z.record(z.string(), z.unknown());

export type ParsedArguments<A> = { ok: true; args: A } | { ok: false; result: ToolResult };

/**
 * `raw` parsed and validated for tool `tool`. Empty text counts as `{}` (models send that for tools without
 * arguments). `example` shows a valid call in the bad-JSON message, e.g. `{"path": "src/index.ts"}`.
 */
export function parseArguments<A>(tool: string, raw: string | undefined, schema: z.ZodType<A>, example?: string): ParsedArguments<A> {
  let value: unknown;
  try {
    value = raw === undefined || raw.trim() === '' ? {} : JSON.parse(raw);
  } catch (err) {
    const send = example ? `send an object such as ${example}` : 'send a JSON object';
    return { ok: false, result: failed(tool, `the arguments are not valid JSON (${err instanceof Error ? err.message : 'unreadable'}); ${send}`) };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return { ok: false, result: failed(tool, 'the arguments must be a JSON object') };
  const checked = schema.safeParse(value, { error: defaultWording });
  if (checked.success) return { ok: true, args: checked.data };
  return { ok: false, result: failed(tool, checked.error.issues.map(describeIssue).join('; ')) };
}

/** `"start_line" must be a whole number`: the field, then the message (a schema's own messages leave the field out). */
function describeIssue(issue: z.core.$ZodIssue): string {
  const field = issue.path.length ? `"${issue.path.map(String).join('.')}"` : 'the arguments';
  return `${field} ${issue.message}`;
}

const KINDS: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  object: 'an object',
  array: 'an array',
};

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'a whole number' : 'a number';
  return KINDS[typeof value] ?? typeof value;
}

/** Wording for schemas without messages of their own, in the house style: "must be …", never zod's "Invalid input". */
function defaultWording(issue: z.core.$ZodRawIssue): string | undefined {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return 'is required';
      return `must be ${KINDS[issue.expected] ?? issue.expected}, not ${kindOf(issue.input)}`;
    case 'too_small':
      if (issue.origin === 'string') return Number(issue.minimum) <= 1 ? 'must not be empty' : `must have at least ${issue.minimum} characters`;
      if (issue.origin === 'array') return `must have at least ${issue.minimum} items`;
      return `must be ${issue.inclusive ? '≥' : '>'} ${issue.minimum}`;
    case 'too_big':
      if (issue.origin === 'string') return `must have at most ${issue.maximum} characters`;
      if (issue.origin === 'array') return `must have at most ${issue.maximum} items`;
      return `must be ${issue.inclusive ? '≤' : '<'} ${issue.maximum}`;
    case 'invalid_value':
      return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    default:
      return undefined;
  }
}
