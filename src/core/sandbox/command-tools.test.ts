// The command tools against real bubblewrap sandboxes and real processes (Linux; CI installs bubblewrap).

import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentToolbox } from '../engine/ports';
import { COMMAND_OUTPUT, createCommandToolbox, EXECUTE_COMMAND, KILL_COMMAND, type ApprovalRequest, type CommandToolboxOptions } from './command-tools';
import { isSecretName } from './environment';
import { planSandbox } from './plan';
import { compileCommandPolicy } from './policy';
import { detectSandbox, NO_SANDBOX, type SandboxInfo } from './sandbox';
import { eventually } from '../../../test/helpers/eventually';

/** Command lines of every process on the machine that contains `marker` (the test's unique one). */
function processesWith(marker: string): string[] {
  const found: string[] = [];
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
      if (cmd.includes(marker) && Number(pid) !== process.pid) found.push(`${pid}: ${cmd}`);
    } catch {
      // ended meanwhile
    }
  }
  return found;
}

/** A sleep duration no other test (or parallel run) uses, to find its processes by command line. */
function uniqueSeconds(whole: number): string {
  return `${whole}.${process.pid}${Math.floor(Math.random() * 1e6)}`;
}
const SLEEP_LIMIT = uniqueSeconds(30);
const SLEEP_CLOSE = uniqueSeconds(31);
const SLEEP_BACKGROUND = uniqueSeconds(32);
const SLEEP_FOREGROUND = uniqueSeconds(33);
const SLEEP_LOOP = uniqueSeconds(34);
const SLEEP_TIMEOUT = uniqueSeconds(600);

const SECRETS = {
  OPENAI_API_KEY: 'sk-test0123456789abcdefghijklmnop',
  ANTHROPIC_API_KEY: 'sk-ant-test0123456789abcdefghijk',
  GITHUB_TOKEN: 'ghp_test0123456789abcdefghijklmnopqr',
};

describe('sandbox command tools (real bubblewrap)', function () {
  this.timeout(60_000);
  let sandbox: SandboxInfo;
  let base: string;
  let copy: string;
  let sibling: string;
  const open: AgentToolbox[] = [];
  let turn: AbortController;
  let n = 0;

  before(async () => {
    sandbox = await detectSandbox();
    assert.equal(sandbox.kind, 'bubblewrap', sandbox.description);
  });

  beforeEach(() => {
    base = mkdtempSync(join(tmpdir(), 'massgen-cmd-test-'));
    copy = join(base, 'agent1');
    sibling = join(base, 'agent2');
    mkdirSync(copy);
    mkdirSync(sibling);
    writeFileSync(join(sibling, 'secret.txt'), 'the other agent\'s work');
    turn = new AbortController();
  });

  afterEach(async () => {
    await Promise.all(open.splice(0).map((t) => t.close?.()));
    rmSync(base, { recursive: true, force: true });
  });

  function toolbox(options: Partial<CommandToolboxOptions> = {}): AgentToolbox {
    const t = createCommandToolbox({ cwd: copy, sandbox, parentEnv: { ...process.env, ...SECRETS }, ...options });
    open.push(t);
    return t;
  }

  function call(t: AgentToolbox, name: string, args: Record<string, unknown> | string, signal = turn.signal) {
    return t.execute({ id: `c${++n}`, name, arguments: typeof args === 'string' ? args : JSON.stringify(args) }, signal);
  }

  const run = (t: AgentToolbox, command: string, extra: Record<string, unknown> = {}) => call(t, EXECUTE_COMMAND, { command, ...extra });

  it('runs "node test.js" in the copy; stdout and stderr reach the model in order, with the exit code and duration', async () => {
    writeFileSync(join(copy, 'test.js'), "console.log('one'); console.error('two'); console.log('three'); process.exitCode = 3;");
    const t = toolbox();
    const r = await run(t, 'node test.js; echo "node said $?"; pwd');
    assert.equal(r.ok, true);
    assert.equal(r.content.replace(/\(in \d+\.\d s\)/, '(in T)'), `exit code 0 (in T)\none\ntwo\nthree\nnode said 3\n${copy}\n`);
    const failed = await run(t, 'node test.js');
    assert.equal(failed.ok, false, 'a command that exits non-zero is not ok');
    assert.match(failed.content, /^exit code 3 \(in \d+\.\d s\)\none\ntwo\nthree\n$/);
  });

  it('shows no API key, token or secret of the parent environment, nor of the host\'s processes', async () => {
    const t = toolbox({ env: { FROM_CONFIG: 'visible', MY_SERVICE_TOKEN: 'hidden-value-123' }, knownSecrets: ['hidden-value-123'] });
    const r = await run(t, 'env; echo ---; cat /proc/*/environ 2>/dev/null | tr "\\0" "\\n"');
    assert.match(r.content, /^FROM_CONFIG=visible$/m);
    assert.match(r.content, /^HOME=\/tmp\/home$/m);
    const names = r.content.split('\n').map((l) => /^([A-Za-z_][A-Za-z0-9_]*)=/.exec(l)?.[1]).filter((x): x is string => Boolean(x));
    assert.ok(names.length > 5);
    assert.deepEqual(names.filter(isSecretName), []);
    for (const value of [...Object.values(SECRETS), 'hidden-value-123']) assert.equal(r.content.includes(value), false, value);
  });

  it('writes nothing outside the copy: not /tmp, not HOME, not the folder next to it, not the system, not the user\'s home', async () => {
    const tag = `massgen-outside-${process.pid}-${Date.now()}`;
    const t = toolbox();
    const attempts = [`/tmp/${tag}`, `$HOME/${tag}`, `${sibling}/${tag}`, `/usr/${tag}`, `/etc/${tag}`, `${homedir()}/${tag}`, `/var/tmp/${tag}`, `${base}/${tag}`];
    const r = await run(t, `${attempts.map((p) => `touch "${p}" 2>/dev/null || echo "refused ${p}"`).join('; ')}; touch inside.txt; cat "${sibling}/secret.txt"`);
    for (const p of [`/tmp/${tag}`, `/tmp/home/${tag}`, join(sibling, tag), `/usr/${tag}`, `/etc/${tag}`, join(homedir(), tag), `/var/tmp/${tag}`, join(base, tag)]) {
      assert.equal(existsSync(p), false, `${p} was created`);
    }
    // /tmp and HOME are private: the touch succeeded in there, and nothing of it is left.
    for (const p of [`/usr/${tag}`, `/etc/${tag}`, `${sibling}/${tag}`, `${homedir()}/${tag}`]) assert.match(r.content, new RegExp(`refused ${p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    assert.equal(existsSync(join(copy, 'inside.txt')), true);
    assert.doesNotMatch(r.content, /the other agent's work/);
    assert.match(r.content, /No such file or directory/);
  });

  it('shows nothing of the user\'s home but the read-only paths commands need (PATH folders, runtimes)', async () => {
    const planned = planSandbox('bubblewrap', copy, { network: false });
    assert.ok(planned.ok);
    const exposed = planned.ok ? planned.plan.exposures.map((e) => e.dest) : [];
    const r = await run(toolbox(), `ls -A "${homedir()}"; touch "${homedir()}/x" 2>&1`);
    const [, ...lines] = r.content.trim().split('\n');
    const listed = lines.slice(0, -1);
    for (const name of listed) assert.ok(exposed.some((p) => p.startsWith(join(homedir(), name))), `${name} is visible in the home folder`);
    assert.match(lines[lines.length - 1], /Read-only file system/);
  });

  it('reaches a local HTTP server only with network: true', async () => {
    const server: Server = createServer((_req, res) => res.end('hello from the host'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const command = `node -e "fetch('http://127.0.0.1:${port}').then(r => r.text()).then(t => console.log('GOT', t), e => { console.log('FAILED', e.cause?.code ?? e.message); process.exit(2); })"`;
      const without = await run(toolbox(), command);
      assert.match(without.content, /^exit code 2 .*\nFAILED (ECONNREFUSED|ENETUNREACH|EHOSTUNREACH)/);
      const withNet = await run(toolbox({ network: true }), command);
      assert.match(withNet.content, /^exit code 0 .*\nGOT hello from the host/);
    } finally {
      server.close();
    }
  });

  // The sleeps outlast this suite's 60 s timeout: the test ends at all only if the timeout did not wait for them.
  it('kills "sleep 600" at a 1 s timeout, without waiting for it, and leaves no process', async () => {
    const r = await run(toolbox(), `sleep ${SLEEP_TIMEOUT} & sleep ${SLEEP_TIMEOUT}`, { timeout_seconds: 1 });
    assert.match(r.content, /^timed out after 1 s; it was killed with every process it started/);
    assert.equal(r.ok, false);
    assert.deepEqual(processesWith(SLEEP_TIMEOUT), []);
  });

  it('caps a timeout above the maximum and says so', async () => {
    const r = await run(toolbox({ limits: { maxTimeoutSeconds: 5 } }), 'echo hi', { timeout_seconds: 50 });
    assert.match(r.content, /^\[timeout_seconds 50 is above the limit; used 5 s\]\nexit code 0/);
  });

  it('background: output is readable while it runs, kill_command stops the tree, a late read says how it ended', async () => {
    const marker = `tick-${process.pid}-${Date.now()}`;
    const t = toolbox();
    const started = await run(t, `node -e "setInterval(() => console.log('${marker}'), 100)"`, { background: true });
    assert.match(started.content, /^started in the background as bg1 \(no timeout\); read its output with command_output \{"id": "bg1"\}/);
    // Read while it runs until three ticks have come (each read takes what is new).
    let ticks = '';
    await eventually(async () => {
      const read = await call(t, COMMAND_OUTPUT, { id: 'bg1' });
      assert.match(read.content, /^bg1 \(node -e .*\) is running \(for \d+\.\d s\)\n/);
      ticks += read.content;
      return ticks.split(marker).length > 3;
    }, { what: 'three ticks of bg1' });
    const killed = await call(t, KILL_COMMAND, { id: 'bg1' });
    assert.match(killed.content, /^bg1: stopped with kill_command after \d+\.\d s; it was killed with every process it started/);
    assert.deepEqual(processesWith(marker), []);
    const late = await call(t, COMMAND_OUTPUT, { id: 'bg1' });
    assert.match(late.content, /has ended: stopped with kill_command/);
    assert.match(late.content, /\(no new output\)$/);
    const again = await call(t, KILL_COMMAND, { id: ' bg1 ' });
    assert.match(again.content, /^bg1 had already ended/);
    const unknown = await call(t, COMMAND_OUTPUT, { id: 'bg7' });
    assert.deepEqual(unknown, { ok: false, content: 'no background command "bg7"; the background commands of this run are bg1' });
  });

  it('background: an ended command reports its exit code and remaining output; the limit of running ones holds', async () => {
    const t = toolbox({ limits: { maxBackground: 1 } });
    await run(t, 'echo early; exit 4', { background: true });
    // Read until it has ended; a read while it still runs may take "early" before the end is known.
    let reads = '';
    const ended = await eventually(async () => {
      const read = await call(t, COMMAND_OUTPUT, { id: 'bg1' });
      reads += read.content;
      return /has ended/.test(read.content) && read;
    }, { what: 'bg1 to end' });
    assert.match(ended.content, /^bg1 \(echo early; exit 4\) has ended: exit code 4 \(in \d+\.\d s\)\n/);
    assert.equal(reads.split('\nearly\n').length, 2, reads);
    await run(t, `sleep ${SLEEP_LIMIT}`, { background: true });
    const refused = await run(t, `sleep ${SLEEP_LIMIT}`, { background: true });
    assert.deepEqual(refused, { ok: false, content: 'execute_command failed: 1 background commands are already running (bg2), the limit; stop one with kill_command first' });
  });

  it('closing the toolbox kills every background command still running; later calls are answered, not run', async () => {
    const marker = `close-${process.pid}-${Date.now()}`;
    const t = toolbox();
    await run(t, `node -e "setInterval(() => {}, 1000)" ${marker}`, { background: true });
    await run(t, `sleep ${SLEEP_CLOSE} ${marker} || sleep ${SLEEP_CLOSE}`, { background: true });
    await eventually(() => processesWith(marker).length >= 1, { what: 'the background commands to start' });
    await t.close!();
    // Killed at close; the kernel ends the sandbox's PID namespace a moment after its first process (under load, not
    // always before close() resolves), as for the run's signal below.
    await eventually(() => processesWith(marker).length === 0 && processesWith(SLEEP_CLOSE).length === 0, { what: 'the background commands to end' });
    assert.deepEqual(await run(t, 'echo hi'), { ok: false, content: 'execute_command failed: the run has ended; commands can no longer run' });
  });

  // A stop is one SIGKILL to bwrap's process group. The sandbox's init must be in it from its start: in its own
  // session (bwrap's --new-session) a stop before it armed --die-with-parent left it and its command running.
  it('every process of a sandboxed command is in the one process group a stop kills', async () => {
    const marker = `group-${process.pid}-${Date.now()}`;
    const t = toolbox();
    await run(t, `sleep ${SLEEP_LIMIT} ${marker} || sleep ${SLEEP_LIMIT}`, { background: true });
    // bwrap, the sandbox's init and the shell carry the marker; the command itself is the last to start.
    const groups = await eventually(() => {
      const pids = processesWith(marker).map((line) => line.split(':')[0]);
      return pids.length >= 3 && pids.map((pid) => readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ')[2]);
    }, { what: 'the sandbox\'s processes to start' });
    assert.equal(new Set(groups).size, 1, `process groups: ${groups.join(', ')}`);
  });

  it('the run\'s signal (given to start) kills background commands; a turn\'s signal kills only its foreground command', async () => {
    const t = toolbox();
    const runSignal = new AbortController();
    await t.start!(runSignal.signal);
    await run(t, `sleep ${SLEEP_BACKGROUND}`, { background: true });
    const thisTurn = new AbortController();
    const pending = call(t, EXECUTE_COMMAND, { command: `sleep ${SLEEP_FOREGROUND}` }, thisTurn.signal);
    await eventually(() => processesWith(SLEEP_FOREGROUND).length > 0, { what: 'the foreground command to start' });
    thisTurn.abort();
    // The kit answers the moment the turn ends; the command is killed a moment later.
    assert.deepEqual(await pending, { ok: false, content: 'execute_command failed: the turn was cancelled' });
    await eventually(() => processesWith(SLEEP_FOREGROUND).length === 0, { what: () => `the foreground command to be killed: ${processesWith(SLEEP_FOREGROUND).join(', ')}` });
    assert.ok(processesWith(SLEEP_BACKGROUND).length > 0, 'the background command outlives the turn');
    runSignal.abort();
    await eventually(() => processesWith(SLEEP_BACKGROUND).length === 0, { what: 'the background command to end' });
  });

  // The cap is shown by the output: killed past 16 MB of the 50 MB, not by how long that took.
  it('an output flood is capped and says how to see everything', async () => {
    const r = await run(toolbox(), 'yes | head -c 50000000');
    assert.ok(r.content.length < 70 * 1024, `${r.content.length} characters`);
    assert.match(r.content, /^stopped after \d+\.\d s: more than 16\.0 MB of unread output; it was killed with every process it started/);
    assert.match(r.content, /of output cut here; shown are the first 32 KB and the last 32 KB/);
    const fits = await run(toolbox(), 'yes | head -c 1000000');
    assert.match(fits.content, /^exit code 0 .*\ny\ny\n/);
    assert.match(fits.content, /cut here; shown are the first 32 KB and the last 32 KB of 977 KB/);
  });

  it('a shell loop starting 1000 sleeps ends with a clear result and leaves nothing', async () => {
    const r = await run(toolbox(), `for i in $(seq 1000); do sleep ${SLEEP_LOOP} & done; echo started; wait`, { timeout_seconds: 3 });
    // As root the kernel applies no process limit (the loop runs to the timeout); otherwise forks fail past it.
    assert.match(r.content, /^(timed out after 3 s; it was killed with every process it started|exit code \d+ )/);
    await eventually(() => processesWith(SLEEP_LOOP).length === 0, { what: 'every sleep of the loop to end' });
  });

  it('"yes > file" stops at the file size limit; the private /tmp is bounded too', async () => {
    const t = toolbox({ limits: { maxFileBytes: 1024 * 1024, tmpBytes: 4 * 1024 * 1024 } });
    const r = await run(t, 'yes > big.txt');
    assert.match(r.content, /^exit code 153 \(in \d+\.\d s; 153 usually means signal SIGXFSZ, a file reached the 1\.0 MB size limit per file\)/);
    assert.equal(statSync(join(copy, 'big.txt')).size, 1024 * 1024);
    const tmp = await run(t, 'for i in 1 2 3 4 5 6; do head -c 900000 /dev/zero > /tmp/f$i || exit 9; done');
    assert.match(tmp.content, /^exit code 9 .*\n.*No space left on device/);
  });

  it('a command that eats the copy\'s disk is stopped', async () => {
    const t = toolbox({ limits: { maxDiskUseBytes: 24 * 1024 * 1024 } });
    const r = await run(t, 'for i in $(seq 200); do head -c 1048576 /dev/urandom > f$i; sync f$i 2>/dev/null; sleep 0.02; done; echo finished', { timeout_seconds: 30 });
    assert.match(r.content, /^stopped after \d+\.\d s: the disk your folder is on lost more than 24\.0 MB of free space while it ran/);
    assert.doesNotMatch(r.content, /finished/);
  });

  it('refuses by the configured patterns, saying which rule, and runs nothing', async () => {
    const policy = compileCommandPolicy({ allowed: ['touch .*', 'ls'], blocked: ['touch blocked'] });
    assert.ok(policy.ok);
    const t = toolbox({ policy: policy.ok ? policy.policy : undefined });
    assert.deepEqual(await run(t, 'touch blocked.txt'), { ok: false, content: 'execute_command failed: refused by the blocked pattern "touch blocked" (command_line_blocked_commands)' });
    const none = await run(t, 'node -e 1');
    assert.match(none.content, /refused: it matches none of the allowed patterns \(command_line_allowed_commands: "touch \.\*", "ls"\)/);
    assert.equal(existsSync(join(copy, 'blocked.txt')), false);
    assert.match((await run(t, 'touch fine.txt')).content, /^exit code 0/);
  });

  it('without a sandbox asks approval for every command; a denial is a result the model can act on', async () => {
    const asked: ApprovalRequest[] = [];
    let answer = false;
    const t = toolbox({ sandbox: NO_SANDBOX, approve: async (request) => (asked.push(request), answer) });
    const denied = await run(t, 'touch denied.txt');
    assert.deepEqual(denied, { ok: false, content: 'execute_command failed: the user did not approve this command, so it did not run. Do the task without it, or explain in your answer why it is needed' });
    assert.equal(existsSync(join(copy, 'denied.txt')), false);
    answer = true;
    const allowed = await run(t, 'touch allowed.txt; echo "$HOME"');
    assert.match(allowed.content, /^exit code 0/);
    assert.equal(existsSync(join(copy, 'allowed.txt')), true);
    assert.deepEqual(asked, [
      { command: 'touch denied.txt', cwd: copy, reason: 'no-sandbox' },
      { command: 'touch allowed.txt; echo "$HOME"', cwd: copy, reason: 'no-sandbox' },
    ]);
    const home = allowed.content.split('\n')[1];
    assert.match(home, /massgen-cmd-.*\/home$/);
    assert.equal(existsSync(home), false, 'the private temp folder is removed after the command');
    assert.match(t.tools[0].description, /no sandbox on this machine: the user is asked to approve every command/);
  });

  it('without a sandbox and without an approver, commands are refused; a sandbox with approval configured asks too', async () => {
    const refused = await run(toolbox({ sandbox: NO_SANDBOX }), 'echo hi');
    assert.match(refused.content, /need the user's approval here .* no approval can be asked in this run/);
    const asked: ApprovalRequest[] = [];
    const t = toolbox({ requireApproval: true, approve: async (request) => (asked.push(request), true) });
    assert.match((await run(t, 'echo hi')).content, /^exit code 0/);
    assert.deepEqual(asked.map((a) => a.reason), ['configured']);
    const throwing = toolbox({ sandbox: NO_SANDBOX, approve: async () => Promise.reject(new Error('prompt closed')) });
    assert.match((await run(throwing, 'echo hi')).content, /not run: the approval could not be asked \(prompt closed\)/);
  });

  it('counts commands per turn (per signal the engine passes)', async () => {
    const t = toolbox({ limits: { maxCommandsPerTurn: 2 } });
    await run(t, 'true');
    await run(t, 'true');
    assert.match((await run(t, 'true')).content, /already run 2 commands, the limit per turn/);
    const next = new AbortController();
    assert.match((await call(t, EXECUTE_COMMAND, { command: 'true' }, next.signal)).content, /^exit code 0/);
  });

  it('answers malformed calls with what to send instead', async () => {
    const t = toolbox();
    const cases: [string, Record<string, unknown> | string, RegExp][] = [
      [EXECUTE_COMMAND, '{not json', /not valid JSON/],
      [EXECUTE_COMMAND, '[1]', /must be a JSON object/],
      [EXECUTE_COMMAND, {}, /"command" must be a string/],
      [EXECUTE_COMMAND, { command: 'ls', background: 'yes' }, /"background" must be true or false/],
      [EXECUTE_COMMAND, { command: 'ls', timeout_seconds: -3 }, /timeout_seconds must be a positive number/],
      [EXECUTE_COMMAND, { command: 'ls', timeout_seconds: 3, timeout: 4 }, /not both/],
      [EXECUTE_COMMAND, { command: 'ls', work_dir: 'src' }, /"work_dir" is not supported.*cd <folder> &&/],
      [EXECUTE_COMMAND, { command: '  ' }, /the command is empty/],
      [COMMAND_OUTPUT, {}, /no background command has been started/],
      ['run_shell', { command: 'ls' }, /unknown tool "run_shell"; the command tools are execute_command, command_output, kill_command/],
    ];
    for (const [name, args, expected] of cases) {
      const r = await call(t, name, args);
      assert.equal(r.ok, false, JSON.stringify(args));
      assert.match(r.content, expected);
    }
    // Upstream's argument name works too.
    assert.match((await run(t, 'sleep 5', { timeout: 0.5 })).content, /^timed out after 0\.5 s/);
  });

  it('describes the sandbox, the network and the limits to the model', () => {
    const [exec, output, kill] = toolbox().tools;
    assert.deepEqual([exec.name, output.name, kill.name], ['execute_command', 'command_output', 'kill_command']);
    assert.match(exec.description, /your own copy of the project/);
    assert.match(exec.description, /There is no network/);
    assert.match(exec.description, /Timeout: 120 s .*at most 600 s/);
    assert.match(exec.description, /At most 30 commands per turn/);
    assert.match(exec.description, /more than 64 KB of output is cut/);
    assert.match(exec.description, /at most 4 run at a time/);
    assert.match(toolbox({ network: true }).tools[0].description, /Network access is allowed/);
  });

  it('refuses to be built on a folder that is not a copy', () => {
    assert.throws(() => createCommandToolbox({ cwd: tmpdir(), sandbox }), /is or contains a system, home or temp folder/);
    assert.throws(() => createCommandToolbox({ cwd: join(base, 'missing'), sandbox }), /does not exist/);
  });
});
