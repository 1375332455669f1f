import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolveCocodOptions, type OptionSources } from './cocod-options.js';

function sourcesOf(files: Record<string, string> = {}, env: Record<string, string> = {}): OptionSources {
  return sources(files, env);
}

function sources(files: Record<string, string> = {}, env: Record<string, string> = {}): OptionSources {
  return {
    env,
    readFile: (path) => {
      const text = files[path];
      if (text === undefined) throw new Error(`ENOENT: no such file, open '${path}'`);
      return text;
    },
  };
}

function run(argv: string[], from = sources()) {
  const resolved = resolveCocodOptions(argv, from);
  if (!resolved.ok) return { error: resolved.error };
  assert.equal(resolved.value.kind, 'run');
  return resolved.value.kind === 'run' ? resolved.value.options : assert.fail();
}

test('defaults: loopback, port 8088, cocod.sqlite, a random master password, the default limits', () => {
  const options = run([]);
  assert.ok(!('error' in options));
  assert.equal(options.bindAddress, '127.0.0.1');
  assert.equal(options.port, 8088);
  assert.equal(options.database, 'cocod.sqlite');
  assert.equal(options.verificationPassword, null);
  assert.equal(options.limits?.['connections-per-address'], 64);
});

test('passwords come from a flag, a file (first line) or the environment; flag and file together are refused', () => {
  const files = { '/run/secrets/master': 'from-file\nsecond line\n', '/run/secrets/socha': 'admin-pw\n' };
  const env = { COCOD_VERIFICATION_PASSWORD: 'from-env', COCOD_SOCHA_PASSWORD: 'socha-env' };
  assert.equal((run(['-v', 'from-flag'], sources(files, env)) as { verificationPassword: string }).verificationPassword, 'from-flag');
  assert.equal(
    (run(['--verification-password-file', '/run/secrets/master'], sources(files, env)) as { verificationPassword: string }).verificationPassword,
    'from-file',
  );
  assert.equal((run([], sources(files, env)) as { verificationPassword: string }).verificationPassword, 'from-env');
  const socha = run(['--socha-port', '0', '--socha-password-file', '/run/secrets/socha'], sources(files, env)) as { sochaPassword: string };
  assert.equal(socha.sochaPassword, 'admin-pw');
  assert.equal((run(['--socha-port', '0'], sources(files, env)) as { sochaPassword: string }).sochaPassword, 'socha-env');
  assert.deepEqual(run(['-v', 'a', '--verification-password-file', '/run/secrets/master'], sources(files)), {
    error: 'give --verification-password or --verification-password-file, not both',
  });
  assert.match((run(['--verification-password-file', '/nope'], sources(files)) as { error: string }).error, /--verification-password-file \/nope: ENOENT/);
});

test('--limit and the config file set limits; flags win over the file; unknown names are refused', () => {
  const files = { 'cocod.json': JSON.stringify({ limits: { 'connections-per-address': 8, 'spectators-per-match': 5 }, 'listen-port': 9000 }) };
  const options = run(['--config', 'cocod.json', '--limit', 'connections-per-address=4', '--expiry', '30'], sources(files)) as {
    port: number;
    limits: Record<string, number>;
  };
  assert.equal(options.port, 9000);
  assert.equal(options.limits['connections-per-address'], 4);
  assert.equal(options.limits['spectators-per-match'], 5);
  assert.equal(options.limits['match-expiry-seconds'], 30);
  assert.deepEqual(run(['--limit', 'bogus=1']), { error: 'unknown limit "bogus" (see docs/limits.md)' });
  assert.deepEqual(run(['--limit', 'nothing']), { error: '--limit takes NAME=VALUE, not "nothing"' });
  assert.match((run(['--config', 'x.json'], sources({ 'x.json': '{"colour": 1}' })) as { error: string }).error, /unknown option "colour"/);
  assert.match((run(['--config', 'x.json'], sources({ 'x.json': '[' })) as { error: string }).error, /^config file x.json: /);
});

test('--nodes: a count from 1 to 64 or auto (the cores), from the flag or the config file; 1 by default', () => {
  const nodes = (argv: string[], from: OptionSources & { cores?: number } = sources()) => {
    const resolved = resolveCocodOptions(argv, from);
    if (!resolved.ok) return resolved.error;
    return resolved.value.kind === 'run' ? resolved.value.nodes : assert.fail();
  };
  assert.equal(nodes([]), 1);
  assert.equal(nodes(['--nodes', '3']), 3);
  assert.equal(nodes(['--nodes', 'auto'], { ...sources(), cores: 16 }), 16);
  assert.equal(nodes(['--config', 'c.json'], sources({ 'c.json': '{"nodes": "auto"}' })), 1, 'auto on a machine whose cores are not told is 1');
  assert.equal(nodes(['--config', 'c.json'], sources({ 'c.json': '{"nodes": 2}' })), 2);
  assert.equal(nodes(['--nodes', '0']), 'invalid --nodes "0" (a number from 1 to 64, or auto)');
  assert.equal(nodes(['--nodes', '65']), 'invalid --nodes "65" (a number from 1 to 64, or auto)');
  assert.equal(nodes(['--nodes', 'two']), 'invalid --nodes "two" (a number from 1 to 64, or auto)');
});

test('--postgres URL comes from the flag, the config file or COCOD_POSTGRES, in that order; absent, the history stays in SQLite', () => {
  const files = { '/etc/cocod.json': JSON.stringify({ postgres: 'postgres://coco@config-host/history' }) };
  const env = { COCOD_POSTGRES: 'postgres://coco:pw@env-host/history' };
  const postgresOf = (argv: string[], from: OptionSources) => (run(argv, from) as { postgres?: string }).postgres;
  assert.equal(postgresOf(['--postgres', 'postgresql://flag-host/h', '--config', '/etc/cocod.json'], sources(files, env)), 'postgresql://flag-host/h');
  assert.equal(postgresOf(['--config', '/etc/cocod.json'], sources(files, env)), 'postgres://coco@config-host/history');
  assert.equal(postgresOf([], sources({}, env)), 'postgres://coco:pw@env-host/history');
  assert.equal(postgresOf([], sources()), undefined);
  assert.equal(postgresOf([], sources({}, { COCOD_POSTGRES: '' })), undefined);
});

test('a --postgres value that is not a PostgreSQL URL is refused without echoing it; --database with --postgres is refused', () => {
  const refused = run(['--postgres', 'mysql://root:topsecret@db/h']);
  assert.deepEqual(refused, { error: 'invalid --postgres URL (postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE)' });
  assert.deepEqual(run(['--postgres', 'postgres://db/h', '-d', 'h.sqlite']), { error: 'give --database or --postgres, not both' });
});

/** The options of a command line that must be accepted. */
function accepted(argv: string[], from = sources()) {
  const options = run(argv, from);
  return 'error' in options ? assert.fail(options.error) : options;
}

/** The error of a command line that must be refused. */
function refusal(argv: string[], from = sources()): string {
  const options = run(argv, from);
  return 'error' in options ? options.error : assert.fail('accepted');
}

test('--redis: a redis:// or rediss:// URL from the flag, the config file or COCOD_REDIS; errors never show its password; it needs --postgres', () => {
  const pg = { COCOD_POSTGRES: 'postgres://coco@db/coco' };
  const sources = (files: Record<string, string> = {}, env: Record<string, string> = {}) => sourcesOf(files, { ...pg, ...env });
  assert.equal(accepted([]).redis, undefined);
  assert.equal(refusal(['--redis', 'redis://10.0.0.5:6379'], sourcesOf()), '--redis needs --postgres URL: the nodes of a cluster share one history (docs/deployment.md)');
  assert.equal(accepted(['--redis', 'redis://10.0.0.5:6379'], sources()).redis, 'redis://10.0.0.5:6379');
  assert.equal(accepted(['--config', 'c.json'], sources({ 'c.json': '{"redis": "rediss://cache.example:6380/2"}' })).redis, 'rediss://cache.example:6380/2');
  assert.equal(accepted([], sources({}, { COCOD_REDIS: 'redis://:s3cret@10.0.0.5' })).redis, 'redis://:s3cret@10.0.0.5');
  assert.equal(accepted(['--redis', 'redis://flag:6379'], sources({}, { COCOD_REDIS: 'redis://env:6379' })).redis, 'redis://flag:6379', 'the flag wins');
  const wrong = refusal(['--redis', 'http://:s3cret@10.0.0.5'], sources());
  assert.match(wrong, /invalid --redis URL/);
  assert.doesNotMatch(wrong, /s3cret/);
  assert.match(refusal(['--redis', 'not a url :s3cret@'], sources()), /^invalid --redis URL \(an unreadable Redis URL\)/);
});

test('the Redis lease limits: a refresh interval shorter than the lease, else refused', () => {
  assert.equal(accepted(['--limit', 'redis-lease-seconds=4', '--limit', 'redis-lease-refresh-seconds=1']).limits?.['redis-lease-seconds'], 4);
  assert.equal(accepted([]).limits?.['redis-lease-seconds'], 10);
  assert.equal(accepted([]).limits?.['redis-lease-refresh-seconds'], 2);
  assert.equal(accepted([]).limits?.['redis-offline-buffer-bytes'], 4 << 20);
  assert.match(refusal(['--limit', 'redis-lease-seconds=2', '--limit', 'redis-lease-refresh-seconds=2']), /must be less than "redis-lease-seconds"/);
});

test('--trusted-proxy (or COCOD_TRUSTED_PROXY) names the balancers; --proxy-protocol needs it', () => {
  assert.deepEqual(pick(run(['--trusted-proxy', '10.0.0.20,10.0.1.0/24', '--proxy-protocol'])), { trustedProxy: '10.0.0.20,10.0.1.0/24', proxyProtocol: true });
  assert.deepEqual(pick(run([], sources({}, { COCOD_TRUSTED_PROXY: '::1' }))), { trustedProxy: '::1', proxyProtocol: false });
  assert.deepEqual(pick(run(['--config', 'c.json'], sources({ 'c.json': '{"trusted-proxy": "10.0.0.20", "proxy-protocol": true}' }))), { trustedProxy: '10.0.0.20', proxyProtocol: true });
  assert.deepEqual(pick(run([])), { trustedProxy: undefined, proxyProtocol: undefined });
  assert.match((run(['--proxy-protocol']) as { error: string }).error, /--proxy-protocol needs --trusted-proxy/);
  assert.match((run(['--trusted-proxy', 'lb.example']) as { error: string }).error, /invalid --trusted-proxy entry "lb.example"/);
  assert.match((run(['--config', 'c.json'], sources({ 'c.json': '{"trusted-proxy": "::1", "proxy-protocol": "yes"}' })) as { error: string }).error, /"proxy-protocol" must be true or false/);
});

function pick(options: object): { trustedProxy: unknown; proxyProtocol: unknown } {
  const { trustedProxy, proxyProtocol } = options as { trustedProxy?: unknown; proxyProtocol?: unknown };
  return { trustedProxy, proxyProtocol };
}

test('--arena-arg GAME:KEY=VALUE (repeatable, also a list in the config file) and --arena-anchors GAME,GAME', () => {
  const options = run(['--arena-arg', 'roshambo:rounds=10', '--arena-arg', 'roshambo:pace=0', '--arena-arg', 'royalur:timeout=5', '--arena-anchors', 'roshambo, royalur']);
  assert.deepEqual('error' in options ? options : options.arenaArgs, { roshambo: { rounds: '10', pace: '0' }, royalur: { timeout: '5' } });
  assert.deepEqual('error' in options ? options : options.arenaAnchors, ['roshambo', 'royalur']);
  const fromFile = run(['--config', 'c.json'], sources({ 'c.json': JSON.stringify({ 'arena-arg': ['dama:rounds=2'] }) }));
  assert.deepEqual('error' in fromFile ? fromFile : fromFile.arenaArgs, { dama: { rounds: '2' } });
  assert.deepEqual(run(['--arena-arg', 'roshambo=10']), { error: '--arena-arg takes GAME:KEY=VALUE, not "roshambo=10"' });
  const plain = run([]);
  assert.ok(!('error' in plain) && plain.arenaArgs === undefined && plain.arenaAnchors === undefined);
});
