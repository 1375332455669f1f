import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { configDir, forgetToken, keptToken, loadToken, saveToken, tokenFilePath } from './token-store.js';

function folder(): { dir: string; env: NodeJS.ProcessEnv; [Symbol.dispose](): void } {
  const dir = mkdtempSync(join(tmpdir(), 'coco-tokens-'));
  return { dir, env: { COCO_CONFIG_DIR: dir }, [Symbol.dispose]: () => rmSync(dir, { recursive: true, force: true }) };
}

test('a kept token is per server and per name, in a file only the user can read', async () => {
  const { dir, env, [Symbol.dispose]: done } = folder();
  try {
    const file = await saveToken('ws://a.example:8088', 'alice', 'tok-a', { env });
    await saveToken('ws://a.example:8088/', 'bob', 'tok-b', { env });
    await saveToken('ws://b.example:8088/', 'alice', 'tok-other', { env });
    assert.equal(file, tokenFilePath('ws://a.example:8088/', env), 'a URL with or without its final / is one server');
    assert.ok(file.startsWith(join(dir, 'tokens')));
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.equal(statSync(join(dir, 'tokens')).mode & 0o777, 0o700);
    assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')), { alice: 'tok-a', bob: 'tok-b' });
    assert.equal(await loadToken('ws://a.example:8088/', 'alice', { env }), 'tok-a');
    assert.equal(await loadToken('ws://b.example:8088/', 'alice', { env }), 'tok-other');
    assert.equal(await loadToken('ws://a.example:8088/', 'carol', { env }), undefined);
    // Names are keys, never the object's own properties.
    assert.equal(await loadToken('ws://a.example:8088/', '__proto__', { env }), undefined);
    assert.equal(await loadToken('ws://a.example:8088/', 'toString', { env }), undefined);
    assert.equal(await loadToken('ws://nowhere.example/', 'alice', { env }), undefined);
  } finally {
    done();
  }
});

test('--token-file wins over COCO_TOKEN, which wins over the kept token; an unreadable or empty token file is an error', async () => {
  const { dir, env, [Symbol.dispose]: done } = folder();
  try {
    await saveToken('ws://h/', 'alice', 'kept', { env });
    const withVariable = { ...env, COCO_TOKEN: ' from-env \n' };
    assert.equal(await loadToken('ws://h/', 'alice', { env: withVariable }), 'from-env');
    const tokenFile = join(dir, 'bot.token');
    writeFileSync(tokenFile, 'from-file\n');
    assert.equal(await loadToken('ws://h/', 'alice', { env: withVariable, tokenFile }), 'from-file');
    assert.equal(await keptToken('ws://h/', 'alice', withVariable), 'kept', 'keptToken reads the kept one alone');
    await assert.rejects(loadToken('ws://h/', 'alice', { env, tokenFile: join(dir, 'missing') }), /ENOENT/);
    writeFileSync(tokenFile, '\n');
    await assert.rejects(loadToken('ws://h/', 'alice', { env, tokenFile }), /is empty/);
  } finally {
    done();
  }
});

test('saving with a token file writes the token alone there, 0600; forgetting removes a kept token and then its empty file', async () => {
  const { dir, env, [Symbol.dispose]: done } = folder();
  try {
    const target = join(dir, 'out', 'alice.token');
    assert.equal(await saveToken('ws://h/', 'alice', 'secret', { env, tokenFile: target }), target);
    assert.equal(readFileSync(target, 'utf8'), 'secret\n');
    assert.equal(statSync(target).mode & 0o777, 0o600);
    await saveToken('ws://h/', 'alice', 'a', { env });
    await saveToken('ws://h/', 'bob', 'b', { env });
    assert.equal(await forgetToken('ws://h/', 'alice', env), true);
    assert.equal(await forgetToken('ws://h/', 'alice', env), false);
    assert.equal(await loadToken('ws://h/', 'bob', { env }), 'b');
    assert.equal(await forgetToken('ws://h/', 'bob', env), true);
    assert.throws(() => statSync(tokenFilePath('ws://h/', env)), /ENOENT/);
  } finally {
    done();
  }
});

test('a kept file that is not the JSON coco writes is an error that names it, not "no token"', async () => {
  const { env, [Symbol.dispose]: done } = folder();
  try {
    await saveToken('ws://h/', 'alice', 'a', { env });
    writeFileSync(tokenFilePath('ws://h/', env), '[1, 2]');
    await assert.rejects(loadToken('ws://h/', 'alice', { env }), /is not the JSON coco writes/);
  } finally {
    done();
  }
});

test('the config folder is COCO_CONFIG_DIR, else $XDG_CONFIG_HOME/coco, else ~/.config/coco', () => {
  assert.equal(configDir({ COCO_CONFIG_DIR: '/x', XDG_CONFIG_HOME: '/y' }), '/x');
  assert.equal(configDir({ XDG_CONFIG_HOME: '/y' }), join('/y', 'coco'));
  assert.match(configDir({}), /[/\\]\.config[/\\]coco$/);
});
