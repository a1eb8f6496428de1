// Which commands an agent may run, and the limits every command runs under. Pure.
//
// The allowed/blocked lists are upstream's `command_line_allowed_commands` / `command_line_blocked_commands`:
// Python regular expressions tried with `re.match`, i.e. anchored at the start of the command and not at its end
// ("python .*" allows "python x.py", and "rm" blocks "rm -rf x" and also "rmdir"). A command is refused when it
// matches a blocked pattern, or when an allowed list is given and it matches none of them. Unlike upstream, leading
// whitespace is ignored before matching, so " rm -rf x" cannot slip past a blocked "rm". The lists filter what a
// model asks for; they are not the security boundary (the sandbox is): "npm test; curl …" still starts with
// "npm test".

export interface CommandPatterns {
  /** Upstream's `command_line_allowed_commands`: when non-empty, a command must match one of them. */
  allowed?: readonly string[];
  /** Upstream's `command_line_blocked_commands`: a command matching any of them is refused. */
  blocked?: readonly string[];
}

interface Pattern {
  source: string;
  re: RegExp;
}

export interface CommandPolicy {
  allowed: readonly Pattern[];
  blocked: readonly Pattern[];
}

export const OPEN_POLICY: CommandPolicy = { allowed: [], blocked: [] };

/**
 * A Python `re` pattern as a JavaScript RegExp with `re.match` semantics: the sticky flag anchors the match at
 * the start (also across a top-level `|`). Python-only spellings are translated: `(?P<name>…)`, `(?P=name)`,
 * `\A`, `\Z`, and inline flags `(?i)`, `(?s)`, `(?m)` at the very start.
 */
export function pythonPattern(source: string): RegExp {
  let flags = 'y';
  let i = 0;
  const inline = /^\(\?([ims]+)\)/.exec(source);
  if (inline) {
    flags += [...new Set(inline[1])].join('');
    i = inline[0].length;
  }
  const named = /\(\?P(<[A-Za-z_][A-Za-z0-9_]*>|=[A-Za-z_][A-Za-z0-9_]*\))/y;
  let body = '';
  while (i < source.length) {
    named.lastIndex = i;
    const group = named.exec(source);
    if (group) {
      body += group[1].startsWith('<') ? `(?${group[1]}` : `\\k<${group[1].slice(1, -1)}>`;
      i = named.lastIndex;
    } else if (source[i] === '\\') {
      const next = source[i + 1] ?? '';
      // Any other escape is copied whole, so an escaped backslash followed by "A" stays what it is.
      body += next === 'A' ? '(?<![\\s\\S])' : next === 'Z' ? '(?![\\s\\S])' : `\\${next}`;
      i += 2;
    } else {
      body += source[i];
      i += 1;
    }
  }
  return new RegExp(body, flags);
}

function compileList(list: readonly string[] | undefined, key: string): { ok: true; patterns: Pattern[] } | { ok: false; error: string } {
  const patterns: Pattern[] = [];
  for (const source of list ?? []) {
    if (typeof source !== 'string' || source === '') return { ok: false, error: `${key}: every entry must be a non-empty regular expression` };
    try {
      patterns.push({ source, re: pythonPattern(source) });
    } catch (err) {
      return { ok: false, error: `${key}: ${JSON.stringify(source)} is not a valid regular expression (${(err as Error).message})` };
    }
  }
  return { ok: true, patterns };
}

/** Compiles the configured lists; an invalid pattern is a configuration error naming the entry. */
export function compileCommandPolicy(config: CommandPatterns): { ok: true; policy: CommandPolicy } | { ok: false; error: string } {
  const allowed = compileList(config.allowed, 'command_line_allowed_commands');
  if (!allowed.ok) return allowed;
  const blocked = compileList(config.blocked, 'command_line_blocked_commands');
  if (!blocked.ok) return blocked;
  return { ok: true, policy: { allowed: allowed.patterns, blocked: blocked.patterns } };
}

function matchesAtStart(re: RegExp, text: string): boolean {
  re.lastIndex = 0;
  return re.test(text);
}

/** Largest command text accepted (far below the kernel's argument limit; a command is not a file). */
export const MAX_COMMAND_CHARS = 32_768;

/** Whether `command` may run; when not, the reason in words the model can act on. */
export function checkCommand(policy: CommandPolicy, command: string): { ok: true } | { ok: false; reason: string } {
  const text = command.trimStart();
  if (text.trim() === '') return { ok: false, reason: 'the command is empty' };
  if (command.includes('\0')) return { ok: false, reason: 'the command contains a NUL character' };
  if (command.length > MAX_COMMAND_CHARS) {
    return { ok: false, reason: `the command is ${command.length} characters long; the limit is ${MAX_COMMAND_CHARS}. Write a script file in your folder and run it` };
  }
  const blocked = policy.blocked.find((p) => matchesAtStart(p.re, text));
  if (blocked) return { ok: false, reason: `refused by the blocked pattern ${JSON.stringify(blocked.source)} (command_line_blocked_commands)` };
  if (policy.allowed.length > 0 && !policy.allowed.some((p) => matchesAtStart(p.re, text))) {
    const list = policy.allowed.map((p) => JSON.stringify(p.source)).join(', ');
    return { ok: false, reason: `refused: it matches none of the allowed patterns (command_line_allowed_commands: ${list}); patterns match from the start of the command` };
  }
  return { ok: true };
}

export interface CommandLimits {
  /** Timeout of a command that does not ask for one. */
  defaultTimeoutSeconds: number;
  /** Largest timeout a command may ask for. */
  maxTimeoutSeconds: number;
  /** Output returned to the model per result (the first and last halves are kept). */
  maxOutputBytes: number;
  /** Output not yet returned past which the command is killed (a flood costs time and memory, not only tokens). */
  killOutputBytes: number;
  /** execute_command calls per agent turn. */
  maxCommandsPerTurn: number;
  /** Background commands one agent may have running at once. */
  maxBackground: number;
  /** Largest file a command may write (the shell's `ulimit -f`): `yes > file` stops here. */
  maxFileBytes: number;
  /** A command is killed when the free space of the disk its folder is on falls by more than this while it runs. */
  maxDiskUseBytes: number;
  /** Processes in one command's sandbox (`ulimit -u`), where the kernel counts them per sandbox. */
  maxProcesses: number;
  /** Size of the private /tmp (which also holds HOME) and of /dev/shm, in memory, per command. */
  tmpBytes: number;
}

export const DEFAULT_COMMAND_LIMITS: CommandLimits = {
  defaultTimeoutSeconds: 120,
  maxTimeoutSeconds: 600,
  maxOutputBytes: 64 * 1024,
  killOutputBytes: 16 * 1024 * 1024,
  maxCommandsPerTurn: 30,
  maxBackground: 4,
  maxFileBytes: 1024 * 1024 * 1024,
  maxDiskUseBytes: 4 * 1024 * 1024 * 1024,
  maxProcesses: 4096, // counts threads too: a test runner with a worker per core, each with its threads, needs room
  tmpBytes: 256 * 1024 * 1024,
};

/** The timeout for a call's `timeout_seconds` (absent: the default; above the maximum: the maximum, with a note). */
export function resolveTimeout(requested: unknown, limits: CommandLimits): { ok: true; seconds: number; note?: string } | { ok: false; reason: string } {
  if (requested === undefined || requested === null) return { ok: true, seconds: limits.defaultTimeoutSeconds };
  if (typeof requested !== 'number' || !Number.isFinite(requested) || requested <= 0) {
    return { ok: false, reason: `timeout_seconds must be a positive number of seconds (at most ${limits.maxTimeoutSeconds})` };
  }
  if (requested > limits.maxTimeoutSeconds) {
    return { ok: true, seconds: limits.maxTimeoutSeconds, note: `timeout_seconds ${requested} is above the limit; used ${limits.maxTimeoutSeconds} s` };
  }
  return { ok: true, seconds: requested };
}
