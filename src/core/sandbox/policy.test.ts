import assert from 'node:assert/strict';
import { checkCommand, compileCommandPolicy, DEFAULT_COMMAND_LIMITS, MAX_COMMAND_CHARS, OPEN_POLICY, pythonPattern, resolveTimeout, type CommandPatterns } from './policy';

function policy(config: CommandPatterns) {
  const compiled = compileCommandPolicy(config);
  assert.equal(compiled.ok, true, JSON.stringify(compiled));
  return compiled.ok ? compiled.policy : OPEN_POLICY;
}

describe('sandbox policy: Python re.match semantics', () => {
  // Each row was checked against CPython's re.match(pattern, text) is not None.
  const cases: [string, string, boolean][] = [
    ['python .*', 'python x.py', true],
    ['python .*', 'python3 x.py', false],
    ['python', 'python3 x.py', true], // anchored at the start only
    ['rm', 'echo ok; rm -rf x', false], // not a search
    ['ls|cat', 'cat file', true], // a top-level | is anchored too
    ['ls|cat', 'echo; cat file', false],
    ['npm (test|run build)$', 'npm test', true],
    ['npm (test|run build)$', 'npm test && curl x', false],
    ['(?i)GIT status', 'git status', true],
    ['(?P<tool>npm|pnpm) (?P=tool)', 'npm npm', true],
    ['(?P<tool>npm|pnpm) (?P=tool)', 'npm pnpm', false],
    ['ls\\Z', 'ls', true],
    ['ls\\Z', 'ls -la', false],
    ['\\Als', 'ls', true],
    ['a\\\\A', 'a\\A', true], // an escaped backslash, then a literal A
  ];
  for (const [pattern, text, expected] of cases) {
    it(`re.match(${JSON.stringify(pattern)}, ${JSON.stringify(text)}) is ${expected}`, () => {
      const re = pythonPattern(pattern);
      re.lastIndex = 0;
      assert.equal(re.test(text), expected);
    });
  }
});

describe('sandbox policy: checkCommand', () => {
  it('allows everything under the open policy but empty, NUL and overlong commands', () => {
    assert.deepEqual(checkCommand(OPEN_POLICY, 'npm test'), { ok: true });
    for (const [command, why] of [['   ', /empty/], ['a\0b', /NUL/], ['x'.repeat(MAX_COMMAND_CHARS + 1), /script file/]] as const) {
      const r = checkCommand(OPEN_POLICY, command);
      assert.equal(r.ok, false);
      if (!r.ok) assert.match(r.reason, why);
    }
  });

  it('refuses a command matching a blocked pattern, naming the pattern and the setting, also after leading spaces', () => {
    const p = policy({ blocked: ['rm .*', 'sudo'] });
    for (const command of ['rm -rf x', '   rm -rf x', 'sudo ls']) {
      const r = checkCommand(p, command);
      assert.equal(r.ok, false, command);
      if (!r.ok) assert.match(r.reason, /blocked pattern "(rm \.\*|sudo)" \(command_line_blocked_commands\)/);
    }
    assert.equal(checkCommand(p, 'ls; rm -rf x').ok, true, 'patterns match from the start, as upstream');
  });

  it('with an allowed list, refuses what matches none of them and lists them', () => {
    const p = policy({ allowed: ['python .*', 'pytest'] });
    assert.equal(checkCommand(p, 'python test.py').ok, true);
    assert.equal(checkCommand(p, 'pytest -q').ok, true);
    const r = checkCommand(p, 'node x.js');
    assert.equal(r.ok, false);
    if (!r.ok) assert.match(r.reason, /none of the allowed patterns \(command_line_allowed_commands: "python \.\*", "pytest"\)/);
  });

  it('a blocked pattern wins over an allowed one', () => {
    const r = checkCommand(policy({ allowed: ['npm .*'], blocked: ['npm publish'] }), 'npm publish');
    assert.equal(r.ok, false);
    if (!r.ok) assert.match(r.reason, /blocked pattern "npm publish"/);
  });

  it('an invalid pattern is a configuration error naming the setting and the entry', () => {
    const r = compileCommandPolicy({ allowed: ['ok'], blocked: ['(unclosed'] });
    assert.equal(r.ok, false);
    if (!r.ok) assert.match(r.error, /command_line_blocked_commands: "\(unclosed" is not a valid regular expression/);
    const empty = compileCommandPolicy({ allowed: [''] });
    assert.equal(empty.ok, false);
  });
});

describe('sandbox policy: resolveTimeout', () => {
  const limits = DEFAULT_COMMAND_LIMITS;
  it('defaults, accepts, caps with a note, and refuses nonsense', () => {
    assert.deepEqual(resolveTimeout(undefined, limits), { ok: true, seconds: 120 });
    assert.deepEqual(resolveTimeout(1.5, limits), { ok: true, seconds: 1.5 });
    const capped = resolveTimeout(10_000, limits);
    assert.equal(capped.ok && capped.seconds, 600);
    assert.match(capped.ok ? capped.note ?? '' : '', /above the limit; used 600 s/);
    for (const bad of [0, -1, '30', Number.NaN, Infinity]) assert.equal(resolveTimeout(bad, limits).ok, false, String(bad));
  });
});
