import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import WebSocket from 'ws';
import { ROOT, startServer, type ServerProcess } from '../support/processes.js';
import { checkHaproxyConfig, freePort, startHaproxy, type HaproxyServer } from '../support/services.js';

/**
 * cocod behind Debian's HAProxy with `send-proxy-v2`, as docs/deployment.md sets it up (on
 * loopback): clients on 127.0.0.5 and 127.0.0.6 reach it through the balancer on 127.0.0.1, and
 * cocod counts and logs each of them by its own address.
 */

let cocod: ServerProcess;
let haproxy: HaproxyServer;
let webPort = 0;
let clobberPort = 0;
const opened: (WebSocket | Socket)[] = [];

before(async () => {
  cocod = await startServer(['--trusted-proxy', '127.0.0.1', '--proxy-protocol', '--clobber-port', '0', '--limit', 'connections-per-address=2']);
  const cocodClobber = Number((await cocod.waitForLog(/clobber tournament port listening on [^:]+:(\d+)/))[1]);
  webPort = await freePort();
  clobberPort = await freePort();
  // The server lines of docs/deployment.md, with a short check interval so the test sees checks.
  haproxy = await startHaproxy(`
global
    maxconn 1000
    log stderr format raw local0
defaults
    log global
    option log-health-checks
    timeout connect 5s
    timeout client 1h
    timeout server 1h
    timeout tunnel 1h
    retries 3
    option redispatch
    # A check must not fail on a busy machine: the first /metrics of a fresh process is slow.
    timeout check 30s
frontend coco_web
    bind 127.0.0.1:${webPort}
    mode http
    http-request deny if { path_beg /metrics }
    default_backend coco_nodes
backend coco_nodes
    mode http
    balance leastconn
    option httpchk GET /health
    http-check expect status 200
    server node1 127.0.0.1:${cocod.port} check inter 200ms send-proxy-v2
frontend clobber
    bind 127.0.0.1:${clobberPort}
    mode tcp
    default_backend clobber_nodes
backend clobber_nodes
    mode tcp
    balance first
    server node1 127.0.0.1:${cocodClobber} check inter 200ms send-proxy-v2
`);
});

after(async () => {
  for (const connection of opened) connection instanceof WebSocket ? connection.terminate() : connection.destroy();
  try {
    await haproxy?.stop();
  } finally {
    await cocod?.stop();
  }
});

function websocket(from: string): Promise<boolean> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${webPort}/`, { localAddress: from });
    opened.push(ws);
    ws.once('error', () => resolve(false));
    ws.once('unexpected-response', () => resolve(false));
    // Through the balancer a refused connection is accepted by HAProxy first, then closed.
    ws.once('close', () => resolve(false));
    ws.once('open', () => {
      ws.ping();
      ws.once('pong', () => resolve(true));
    });
  });
}

test('the HAProxy configuration of docs/deployment.md passes haproxy -c', async () => {
  const docs = readFileSync(`${ROOT}/docs/deployment.md`, 'utf8');
  const section = docs.slice(docs.indexOf('### The balancer'));
  const config = /```\n([\s\S]*?)```/.exec(section)?.[1];
  assert.ok(config?.includes('send-proxy-v2'), 'the balancer section holds a config with send-proxy-v2');
  // What an operator following it needs (issue 27): retries on another node, /metrics kept off the
  // public port, HTTP health checks that nodes do not log as resets.
  for (const line of ['option redispatch', 'retries 3', 'http-request deny if { path_beg /metrics }', 'option httpchk GET /health']) {
    assert.ok(config!.includes(line), `the config has "${line}"`);
  }
  await checkHaproxyConfig(config!);
});

test('through HAProxy with send-proxy-v2, each client has its own connections-per-address budget and its own name in the log', async () => {
  for (const from of ['127.0.0.5', '127.0.0.5', '127.0.0.6', '127.0.0.6']) assert.ok(await websocket(from), `${from}:\n${cocod.log()}\n${haproxy.output()}`);
  assert.equal(await websocket('127.0.0.5'), false, '127.0.0.5 has used its two');
  await cocod.waitForLog(/http 127\.0\.0\.5: connection refused \(connections-per-address/);
  // Health checks keep coming all along (LOCAL headers, the balancer's own connections).
  const response = await fetch(`http://127.0.0.1:${webPort}/health`);
  assert.equal(response.status, 200);
  assert.equal((await fetch(`http://127.0.0.1:${webPort}/metrics`)).status, 403, '/metrics is not served through the public port');
  assert.doesNotMatch(cocod.log(), /ECONNRESET/, 'the HTTP health checks are not logged as resets');
});

test('through HAProxy the Clobber port sees the client behind the balancer', async () => {
  const socket = connect({ host: '127.0.0.1', port: clobberPort, localAddress: '127.0.0.7' });
  opened.push(socket);
  socket.on('error', () => {});
  socket.write('play clobber alice\n');
  await cocod.waitForLog(/clobber port 127\.0\.0\.7:\d+: alice joined match/);
});
