import assert from 'node:assert/strict';
import { commandEnvironment, isSecretName, looksSecret } from './environment';

describe('sandbox environment: isSecretName', () => {
  const secret = [
    'OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'GITHUB_TOKEN', 'GH_TOKEN', 'NPM_TOKEN', 'NPM_CONFIG__AUTH', 'NPM_CONFIG_//registry.npmjs.org/:_authToken',
    'AWS_ACCESS_KEY_ID', 'AWS_SESSION_TOKEN', 'AWS_REGION', 'AZURE_CLIENT_SECRET', 'GOOGLE_APPLICATION_CREDENTIALS', 'SSH_AUTH_SOCK',
    'GPG_AGENT_INFO', 'DB_PASSWORD', 'PGPASSWORD', 'MY_SECRET', 'SLACK_BOT_TOKEN', 'STRIPE_KEY', 'API_KEYS', 'KEY', 'SIGNING_KEY_ID',
    'HF_TOKEN', 'HUGGINGFACE_HUB_TOKEN', 'OPENROUTER_API_KEY', 'DBUS_SESSION_BUS_ADDRESS', 'CI_JOB_JWT_PRIVATE', 'oauth_client', 'docker_auth_config',
    'SMTP_PASS', 'GITLAB_TOKEN', 'COOKIE_JAR', 'PASSPHRASE', 'MY_CREDENTIALS',
  ];
  for (const name of secret) it(`${name} is a secret`, () => assert.equal(isSecretName(name), true));
  const harmless = ['PATH', 'LANG', 'LC_ALL', 'TZ', 'HOME', 'TERM', 'CI', 'NODE_ENV', 'GIT_AUTHOR_NAME', 'MONKEY', 'KEYBOARD_LAYOUT', 'PYTHONPATH', 'VIRTUAL_ENV'];
  for (const name of harmless) it(`${name} is not`, () => assert.equal(isSecretName(name), false));
});

describe('sandbox environment: looksSecret', () => {
  it('recognises well-known credential shapes', () => {
    for (const value of ['sk-abcdefghijklmnopqrstuvwx', 'sk-ant-api03-abcdefghijklmnopqrst', 'ghp_abcdefghijklmnopqrstuvwxyz0123', 'github_pat_11ABCDEFG0123456789abcdef', 'xoxb-1234567890-abcdef', 'AKIAABCDEFGHIJKLMNOP', 'AIzaSyA-abcdefghijklmnopqrstuvwxyz0123', '-----BEGIN OPENSSH PRIVATE KEY-----']) {
      assert.equal(looksSecret(value), true, value);
    }
  });
  it('recognises a known secret anywhere in a value, but ignores very short ones', () => {
    assert.equal(looksSecret('prefix-my-configured-key-suffix', ['my-configured-key']), true);
    assert.equal(looksSecret('abc', ['abc']), false);
  });
  it('leaves ordinary values alone', () => {
    for (const value of ['/usr/bin:/bin', 'en_US.UTF-8', 'production', 'task-runner', 'sk-short']) assert.equal(looksSecret(value), false, value);
  });
});

describe('sandbox environment: commandEnvironment', () => {
  const parent = {
    PATH: '/usr/local/bin:/usr/bin:/bin',
    LANG: 'en_US.UTF-8',
    LC_CTYPE: 'C.UTF-8',
    LC_SECRET_TOKEN: 'x',
    HOME: '/home/user',
    USER: 'user',
    OPENAI_API_KEY: 'sk-0123456789abcdefghijklmn',
    ANTHROPIC_API_KEY: 'sk-ant-0123456789abcdefghij',
    GITHUB_TOKEN: 'ghp_0123456789abcdefghijklmnop',
    SSH_AUTH_SOCK: '/run/user/1000/ssh.sock',
    NODE_OPTIONS: '--require /home/user/hook.js',
    BASH_FUNC_x: '() { echo; }',
    DISPLAY: ':0',
    NODE_EXTRA_CA_CERTS: '/etc/ssl/proxy-ca.pem',
  };

  it('takes only the allow-list from the parent, fixes HOME/TMPDIR and the no-colour, no-prompt settings', () => {
    const { env } = commandEnvironment({ parent, home: '/tmp/home', tmp: '/tmp' });
    assert.deepEqual(env, {
      PATH: '/usr/local/bin:/usr/bin:/bin',
      LANG: 'en_US.UTF-8',
      LC_CTYPE: 'C.UTF-8',
      USER: 'user',
      NODE_EXTRA_CA_CERTS: '/etc/ssl/proxy-ca.pem',
      TERM: 'dumb',
      NO_COLOR: '1',
      FORCE_COLOR: '0',
      CI: '1',
      PAGER: 'cat',
      GIT_PAGER: 'cat',
      GIT_TERMINAL_PROMPT: '0',
      SHELL: '/bin/sh',
      HOME: '/tmp/home',
      TMPDIR: '/tmp',
      TMP: '/tmp',
      TEMP: '/tmp',
    });
  });

  it('adds the caller\'s variables but drops secret names, secret values, known secrets and reserved names, saying why', () => {
    const { env, dropped } = commandEnvironment({
      parent,
      home: '/h',
      tmp: '/t',
      extra: { NODE_ENV: 'test', OPENAI_API_KEY: 'x', DEBUG_URL: 'https://sk-0123456789abcdefghijklmn@example.com', MODEL_SETTING: 'uses my-config-key-123', HOME: '/home/user', 'BAD-NAME': '1' },
      knownSecrets: ['my-config-key-123'],
    });
    assert.equal(env.NODE_ENV, 'test');
    assert.equal(env.HOME, '/h');
    assert.deepEqual(
      dropped.map((d) => d.name).sort(),
      ['BAD-NAME', 'DEBUG_URL', 'HOME', 'MODEL_SETTING', 'OPENAI_API_KEY'],
    );
    assert.match(dropped.find((d) => d.name === 'OPENAI_API_KEY')!.reason, /name looks like a secret/);
    assert.match(dropped.find((d) => d.name === 'DEBUG_URL')!.reason, /value looks like a secret/);
    assert.match(dropped.find((d) => d.name === 'HOME')!.reason, /set by the sandbox/);
    for (const value of Object.values(env)) assert.doesNotMatch(value, /sk-|ghp_|my-config-key/);
  });

  it('treats the values of the parent\'s secret-named variables as known secrets', () => {
    const { env, dropped } = commandEnvironment({ parent: { MYPROVIDER_API_KEY: 'plain-looking-0042' }, home: '/h', tmp: '/t', extra: { SERVICE_URL: 'https://u:plain-looking-0042@host' } });
    assert.equal(env.SERVICE_URL, undefined);
    assert.deepEqual(dropped, [{ name: 'SERVICE_URL', reason: 'the value looks like a secret' }]);
  });

  it('appends the Node folder to PATH once, and falls back to a system PATH', () => {
    assert.equal(commandEnvironment({ parent: { PATH: '/usr/bin' }, home: '/h', tmp: '/t', appendPath: ['/opt/node/bin', '/usr/bin'] }).env.PATH, '/usr/bin:/opt/node/bin');
    assert.equal(commandEnvironment({ parent: {}, home: '/h', tmp: '/t' }).env.PATH, '/usr/local/bin:/usr/bin:/bin');
  });
});
