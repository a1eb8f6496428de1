// sandbox-exec exists only on macOS: these tests check the profile's text, not its effect.

import assert from 'node:assert/strict';
import { macosProfile, sbplString } from './macos-profile';
import type { SandboxPlan } from './plan';

const plan: SandboxPlan = {
  copy: '/Users/ann/work/agent1',
  hidden: ['/Users', '/Volumes'],
  exposures: [{ source: '/Users/ann/.nvm/versions/node/v20', dest: '/Users/ann/.nvm/versions/node/v20' }],
  network: false,
  appendPath: [],
};
const TMP = '/private/var/folders/xy/T/massgen-cmd-1';

function indexOfLine(profile: string, start: string): number {
  return profile.split('\n').findIndex((l) => l.startsWith(start));
}

describe('sandbox macOS profile (text only)', () => {
  it('is the documented policy, narrowing rules after broad ones (SBPL: the last match wins)', () => {
    assert.equal(
      macosProfile(plan, TMP),
      [
        '(version 1)',
        '(allow default)',
        '(deny network*)',
        '(deny file-read* (subpath "/Users") (subpath "/Volumes"))',
        `(allow file-read* (subpath "/Users/ann/work/agent1") (subpath "${TMP}") (subpath "/Users/ann/.nvm/versions/node/v20"))`,
        '(allow file-read-metadata (literal "/Users/ann/work/agent1") (literal "/Users/ann/work") (literal "/Users/ann") (literal "/Users") (literal "/") ' +
          `(literal "${TMP}") (literal "/private/var/folders/xy/T") (literal "/private/var/folders/xy") (literal "/private/var/folders") (literal "/private/var") (literal "/private") ` +
          '(literal "/Users/ann/.nvm/versions/node/v20") (literal "/Users/ann/.nvm/versions/node") (literal "/Users/ann/.nvm/versions") (literal "/Users/ann/.nvm"))',
        '(deny file-write*)',
        `(allow file-write* (subpath "/Users/ann/work/agent1") (subpath "${TMP}") (literal "/dev/null") (literal "/dev/zero") (literal "/dev/tty") (literal "/dev/dtracehelper") (regex #"^/dev/fd/[0-9]+$"))`,
        '',
      ].join('\n'),
    );
  });

  it('allows the network when asked, and still limits writes', () => {
    const profile = macosProfile({ ...plan, network: true }, TMP);
    assert.equal(profile.includes('(deny network*)'), false);
    assert.ok(indexOfLine(profile, '(allow file-write*') > indexOfLine(profile, '(deny file-write*)'));
  });

  it('quotes paths so a quote or backslash cannot end the string', () => {
    assert.equal(sbplString('/Users/a"b\\c'), '"/Users/a\\"b\\\\c"');
    const profile = macosProfile({ ...plan, copy: '/Users/ann/we"ird' }, TMP);
    assert.ok(profile.includes('(subpath "/Users/ann/we\\"ird")'));
  });
});
