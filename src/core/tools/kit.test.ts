import assert from 'node:assert/strict';
import { z } from 'zod';
import { ANY_OBJECT } from './arguments';
import { capOutput, defineToolbox, tool, type ToolDef } from './kit';
import type { ToolResult } from './types';

const spec = (name: string) => ({ name, description: `the ${name} tool`, parameters: { type: 'object', properties: {} } });

/** A toolbox with one `echo` tool (or the given ones) and the calls it received. */
function box(tools?: ToolDef[], options: { refusal?: () => string | undefined; describeError?: (err: unknown) => string; maxOutputChars?: number } = {}) {
  const seen: unknown[] = [];
  const echo = tool({
    spec: spec('echo'),
    args: z.object({ text: z.string({ error: 'must be a string with the text to echo' }), times: z.int().min(1).optional() }),
    run: ({ text, times }) => {
      seen.push(text);
      return { ok: true, content: text.repeat(times ?? 1) };
    },
  });
  return { seen, toolbox: defineToolbox({ family: 'test tools', tools: tools ?? [echo], example: '{"text": "hi"}', ...options }) };
}

const live = () => new AbortController().signal;
const call = (name: string, args: unknown) => ({ id: '1', name, arguments: typeof args === 'string' ? args : JSON.stringify(args) });

describe('the tool kit', () => {
  it('runs a valid call with typed arguments and offers the specs', async () => {
    const { toolbox, seen } = box();
    assert.deepEqual(await toolbox.execute(call('echo', { text: 'ab', times: 2 }), live()), { ok: true, content: 'abab' });
    assert.deepEqual(seen, ['ab']);
    assert.deepEqual(toolbox.tools.map((t) => t.name), ['echo']);
  });

  it('answers malformed JSON and non-objects with a valid example', async () => {
    const { toolbox, seen } = box();
    const bad = await toolbox.execute(call('echo', '{text: hi'), live());
    assert.equal(bad.ok, false);
    assert.match(bad.content, /^echo failed: the arguments are not valid JSON \(.+\); send an object such as \{"text": "hi"\}$/);
    for (const raw of ['[1]', 'null', '"text"']) assert.deepEqual(await toolbox.execute(call('echo', raw), live()), { ok: false, content: 'echo failed: the arguments must be a JSON object' });
    assert.deepEqual(seen, []);
  });

  it('names the bad field and what it must be, in the schema\'s words or the kit\'s', async () => {
    const { toolbox, seen } = box();
    assert.deepEqual(await toolbox.execute(call('echo', { text: 3 }), live()), { ok: false, content: 'echo failed: "text" must be a string with the text to echo' });
    assert.deepEqual(await toolbox.execute(call('echo', { text: 'a', times: 1.5 }), live()), { ok: false, content: 'echo failed: "times" must be a whole number, not a number' });
    assert.deepEqual(await toolbox.execute(call('echo', { text: 'a', times: 0 }), live()), { ok: false, content: 'echo failed: "times" must be ≥ 1' });
    // Every problem at once, so one correction can fix them all; empty arguments are {}.
    assert.deepEqual(await toolbox.execute(call('echo', { times: 'x' }), live()), { ok: false, content: 'echo failed: "text" must be a string with the text to echo; "times" must be a number, not a string' });
    assert.deepEqual(await toolbox.execute(call('echo', ''), live()), { ok: false, content: 'echo failed: "text" must be a string with the text to echo' });
    assert.deepEqual(seen, []);
  });

  it('passes any object through when the arguments are validated elsewhere', async () => {
    const relay = tool({ spec: spec('relay'), args: ANY_OBJECT, run: (args) => ({ ok: true, content: JSON.stringify(args) }) });
    const { toolbox } = box([relay]);
    assert.deepEqual(await toolbox.execute(call('relay', { a: [1], b: { c: null } }), live()), { ok: true, content: '{"a":[1],"b":{"c":null}}' });
    assert.match((await toolbox.execute(call('relay', '[]'), live())).content, /must be a JSON object/);
  });

  it('names the toolbox\'s tools for an unknown one, and says when there are none', async () => {
    const { toolbox } = box();
    assert.deepEqual(await toolbox.execute(call('nope', {}), live()), { ok: false, content: 'unknown tool "nope"; the test tools are echo' });
    assert.deepEqual(await toolbox.execute(call('__proto__', {}), live()), { ok: false, content: 'unknown tool "__proto__"; the test tools are echo' });
    assert.deepEqual(await box([]).toolbox.execute(call('echo', {}), live()), { ok: false, content: 'unknown tool "echo"; the test tools are (none available)' });
  });

  it('reads a changing tool list on every call', async () => {
    const tools: ToolDef[] = [];
    const toolbox = defineToolbox({ family: 'test tools', tools: () => tools });
    assert.equal(toolbox.tools.length, 0);
    tools.push(tool({ spec: spec('late'), args: ANY_OBJECT, run: () => ({ ok: true, content: 'here' }) }));
    assert.deepEqual(toolbox.tools.map((t) => t.name), ['late']);
    assert.deepEqual(await toolbox.execute(call('late', {}), live()), { ok: true, content: 'here' });
  });

  it('refuses every call for the toolbox\'s own reason before anything else', async () => {
    const { toolbox, seen } = box(undefined, { refusal: () => 'the run has ended' });
    assert.deepEqual(await toolbox.execute(call('echo', { text: 'a' }), live()), { ok: false, content: 'echo failed: the run has ended' });
    assert.deepEqual(seen, []);
  });

  it('does not run a call whose signal has already aborted', async () => {
    const { toolbox, seen } = box();
    const cancel = new AbortController();
    cancel.abort();
    assert.deepEqual(await toolbox.execute(call('echo', { text: 'a' }), cancel.signal), { ok: false, content: 'echo failed: the run was cancelled' });
    assert.deepEqual(seen, []);
  });

  it('answers "cancelled" when the signal aborts while a tool runs, even a tool that ignores it', async () => {
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const stuck = tool({
      spec: spec('stuck'),
      args: ANY_OBJECT,
      run: () => {
        started();
        return new Promise<ToolResult>(() => {}); // never settles, whatever the signal does
      },
    });
    const { toolbox } = box([stuck]);
    const cancel = new AbortController();
    const pending = toolbox.execute(call('stuck', {}), cancel.signal);
    await running;
    cancel.abort();
    assert.deepEqual(await pending, { ok: false, content: 'stuck failed: the run was cancelled' });
  });

  it('keeps a cancelled tool\'s late failure from surfacing as an unhandled rejection', async () => {
    let fail!: (err: Error) => void;
    const late = tool({ spec: spec('late'), args: ANY_OBJECT, run: () => new Promise<ToolResult>((_, reject) => (fail = reject)) });
    const cancel = new AbortController();
    const pending = defineToolbox({ family: 'test tools', tools: [late], cancelled: 'the turn was cancelled' }).execute(call('late', {}), cancel.signal);
    await Promise.resolve();
    cancel.abort();
    assert.deepEqual(await pending, { ok: false, content: 'late failed: the turn was cancelled' });
    let unhandled = false;
    const onUnhandled = () => (unhandled = true);
    process.once('unhandledRejection', onUnhandled);
    fail(new Error('too late'));
    await new Promise((resolve) => setImmediate(resolve));
    process.removeListener('unhandledRejection', onUnhandled);
    assert.equal(unhandled, false);
  });

  it('turns a thrown error into a result, without host paths', async () => {
    const thrower = (err: unknown) => tool({ spec: spec('boom'), args: ANY_OBJECT, run: () => { throw err; } });
    const asyncThrower = tool({ spec: spec('boom'), args: ANY_OBJECT, run: async () => Promise.reject(new Error('bad state')) });
    assert.deepEqual(await box([thrower(new Error('bad state'))]).toolbox.execute(call('boom', {}), live()), { ok: false, content: 'boom failed: an unexpected error occurred (bad state)' });
    assert.deepEqual(await box([asyncThrower]).toolbox.execute(call('boom', {}), live()), { ok: false, content: 'boom failed: an unexpected error occurred (bad state)' });
    const fsError = Object.assign(new Error("EACCES: permission denied, open '/home/someone/secret.txt'"), { code: 'EACCES' });
    assert.deepEqual(await box([thrower(fsError)]).toolbox.execute(call('boom', {}), live()), { ok: false, content: 'boom failed: an unexpected error occurred (EACCES)' });
    const urlError = new Error('fetch https://user:sk-secret@example.com/v1?key=k failed');
    assert.deepEqual(await box([thrower(urlError)]).toolbox.execute(call('boom', {}), live()), { ok: false, content: 'boom failed: an unexpected error occurred (fetch https://example.com/v1 failed)' });
    const own = box([thrower(fsError)], { describeError: () => 'permission denied for "notes.txt"' });
    assert.deepEqual(await own.toolbox.execute(call('boom', {}), live()), { ok: false, content: 'boom failed: permission denied for "notes.txt"' });
  });

  it('caps the output, per toolbox or per tool', async () => {
    const { toolbox } = box(undefined, { maxOutputChars: 300 });
    const long = await toolbox.execute(call('echo', { text: 'a', times: 1000 }), live());
    assert.equal(long.ok, true);
    assert.equal(long.content, capOutput('a'.repeat(1000), 300));
    assert.ok(long.content.length <= 300);
    const small = tool({ spec: spec('small'), args: ANY_OBJECT, maxOutputChars: 200, run: () => ({ ok: false, content: 'b'.repeat(500) }) });
    const capped = await box([small], { maxOutputChars: 10_000 }).toolbox.execute(call('small', {}), live());
    assert.deepEqual(capped, { ok: false, content: capOutput('b'.repeat(500), 200) });
  });

  it('capOutput says how much there was and never splits a surrogate pair', () => {
    assert.equal(capOutput('short', 10), 'short');
    const cut = capOutput('a'.repeat(1000), 300);
    assert.ok(cut.length <= 300);
    assert.match(cut, /\[truncated: the tool result was 1000 characters; showing the first 140\./);
    const emoji = capOutput('a'.repeat(139) + '😀'.repeat(100), 300);
    assert.ok(!/[\ud800-\udbff]\n/.test(emoji));
  });
});
