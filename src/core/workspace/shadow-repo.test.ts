import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { cleanup, sh, tempDir } from './git-fixtures.test-helper';
import { parseConfigList, quoteConfigValue, settingsFromConfig, shadowConfigText } from './shadow-repo';

describe('workspace/shadow-repo', () => {
  const made: string[] = [];
  afterEach(() => cleanup(made));

  it('picks the settings to carry, the filter drivers to switch off and the object format from the user\'s config', () => {
    const entries = parseConfigList('core.autocrlf\ninput\0core.symlinks\nfalse\0core.bare\0user.name\nX\0filter.crypt.clean\ngit-crypt clean\0filter.My.Driver.smudge\nx\0extensions.objectformat\nsha256\0');
    assert.deepEqual(entries[2], ['core.bare', 'true'], 'a key alone means true');
    assert.deepEqual(settingsFromConfig(entries), {
      carried: [['core.autocrlf', 'input'], ['core.symlinks', 'false']],
      filters: ['My.Driver', 'crypt', 'lfs'],
      objectFormat: 'sha256',
    });
    assert.deepEqual(settingsFromConfig([['core.autocrlf', 'true'], ['core.autocrlf', 'false']]).carried, [['core.autocrlf', 'false']], 'the last value wins, as in git');
  });

  it('writes a config git reads back exactly, odd values and names included', () => {
    const dir = tempDir('shadow-config', made);
    const file = path.join(dir, 'config');
    const hooks = path.join(dir, 'no hooks; really # not');
    const settings = settingsFromConfig([['core.excludesfile', '~/my "ignore"\\file'], ['filter.a "b".clean', 'x']]);
    writeFileSync(file, shadowConfigText(settings, hooks));
    const read = (key: string): string => sh(dir, ['config', '-f', file, '--get', key]).replace(/\n$/, '');
    assert.equal(read('core.hooksPath'), hooks);
    assert.equal(read('core.excludesFile'), '~/my "ignore"\\file');
    assert.equal(read('commit.gpgSign'), 'false');
    assert.equal(read('submodule.recurse'), 'false');
    assert.equal(read('filter.lfs.smudge'), '');
    assert.equal(read('filter.lfs.required'), 'false');
    assert.equal(read('filter.a "b".process'), '');
    assert.equal(quoteConfigValue('a\tb\nc'), '"a\\tb\\nc"');
  });
});
