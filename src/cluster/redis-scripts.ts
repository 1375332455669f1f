import type { Redis } from 'ioredis';

/**
 * The cluster's data in Redis and the Lua scripts that change it. Each change of the directory is
 * one script: it checks who owns the match, changes the keys, takes the next number of the change
 * counter and publishes the change with that number, all atomically, so every node receives every
 * change in the one order Redis ran them, and a node that sees a number skipped knows it missed
 * something (a reconnection, a restarted Redis) and reads the whole directory again.
 *
 * Keys (after the prefix, `cocod:` by default):
 *   entries        hash  match id -> DirectoryEntry as JSON
 *   owners         hash  match id -> node name (who may change or remove it)
 *   order          zset  match id, scored by the change number that first published it (list order)
 *   seq            the change counter
 *   dir            the channel of directory changes: {"s":N,"k":"put"|"removed"|"down",...}
 *   bus:NODE       each node's channel of bridge messages (redis-bus-codec.ts)
 *   leases         zset  node -> the time (ms) its lease runs out
 *   reaping        zset  node whose lease ran out -> the time the claim on its clean-up runs out
 *   gone:NODE      a node declared dead: it may neither refresh its lease nor publish (one day)
 *   node-number    counter giving each node a number for its match ids, only when no durable source
 *                  is given (RedisLinkOptions.takeNodeNumber; cocod takes a PostgreSQL sequence)
 *   epoch          a random value the first node to reach this Redis sets: a new one means Redis lost its data
 *   addr:NODE      hash  address key -> connections the node holds from it (leaves with the node)
 *   game-new:KEY   hash  the GameNew bucket of one address: tokens t as of time at (expires in a minute)
 *   bucket:KEY     hash  a shared token bucket of AddressCounter.takeTokens (registrations...): t, at (expires once full)
 *   lease:NAME     hash  a cluster-wide lease (ClusterLeases): node, epoch, until (ms; free after it)
 *   lease-epoch:NAME  the counter of that lease's holders (its fencing epoch), kept when it expires
 */
export interface RedisKeys {
  readonly entries: string;
  readonly owners: string;
  readonly order: string;
  readonly seq: string;
  readonly dirChannel: string;
  readonly leases: string;
  readonly reaping: string;
  readonly nodeNumber: string;
  readonly epoch: string;
  readonly prefix: string;
  bus(node: string): string;
  gone(node: string): string;
  addresses(node: string): string;
  gameNew(address: string): string;
  bucket(key: string): string;
  lease(name: string): string;
  leaseEpoch(name: string): string;
}

export function redisKeys(prefix: string): RedisKeys {
  return {
    prefix,
    entries: `${prefix}entries`,
    owners: `${prefix}owners`,
    order: `${prefix}order`,
    seq: `${prefix}seq`,
    dirChannel: `${prefix}dir`,
    leases: `${prefix}leases`,
    reaping: `${prefix}reaping`,
    nodeNumber: `${prefix}node-number`,
    epoch: `${prefix}epoch`,
    bus: (node) => `${prefix}bus:${node}`,
    gone: (node) => `${prefix}gone:${node}`,
    addresses: (node) => `${prefix}addr:${node}`,
    gameNew: (address) => `${prefix}game-new:${address}`,
    bucket: (key) => `${prefix}bucket:${key}`,
    lease: (name) => `${prefix}lease:${name}`,
    leaseEpoch: (name) => `${prefix}lease-epoch:${name}`,
  };
}

/** The time in the scripts: the caller's clock when it gives one (tests), else Redis's own (no skew between machines). */
const NOW = `
local now = tonumber(ARGV[#ARGV])
if not now then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end`;

/** How long a node stays declared dead (its name is not reused: it carries a random part). */
const GONE_MS = 24 * 3600 * 1000;

const SCRIPTS = {
  // KEYS entries owners order seq gone(node); ARGV id node entryJson channel
  // 1: published; 0: the id is another node's; -1: this node was declared dead.
  dirPut: {
    numberOfKeys: 5,
    lua: `
if redis.call('EXISTS', KEYS[5]) == 1 then return -1 end
local owner = redis.call('HGET', KEYS[2], ARGV[1])
if owner and owner ~= ARGV[2] then return 0 end
local seq = redis.call('INCR', KEYS[4])
if not owner then
  redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
  redis.call('ZADD', KEYS[3], seq, ARGV[1])
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
redis.call('PUBLISH', ARGV[4], '{"s":' .. seq .. ',"k":"put","e":' .. ARGV[3] .. '}')
return 1`,
  },
  // KEYS entries owners order seq; ARGV id node channel
  dirRemove: {
    numberOfKeys: 4,
    lua: `
if redis.call('HGET', KEYS[2], ARGV[1]) ~= ARGV[2] then return 0 end
redis.call('HDEL', KEYS[1], ARGV[1])
redis.call('HDEL', KEYS[2], ARGV[1])
redis.call('ZREM', KEYS[3], ARGV[1])
local seq = redis.call('INCR', KEYS[4])
redis.call('PUBLISH', ARGV[3], cjson.encode({s = seq, k = 'removed', id = ARGV[1], node = ARGV[2]}))
return 1`,
  },
  // KEYS entries order seq: the change number, then every entry in first-published order.
  dirSnapshot: {
    numberOfKeys: 3,
    lua: `
local out = { redis.call('GET', KEYS[3]) or '0' }
for _, id in ipairs(redis.call('ZRANGE', KEYS[2], 0, -1)) do
  local entry = redis.call('HGET', KEYS[1], id)
  if entry then table.insert(out, entry) end
end
return out`,
  },
  // A node is down (it left, or its clean-up is done): its matches and connection counts leave, then the node.
  // KEYS entries owners order seq leases reaping addresses(node); ARGV node channel
  nodeDown: {
    numberOfKeys: 7,
    lua: `
redis.call('DEL', KEYS[7])
local owners = redis.call('HGETALL', KEYS[2])
for i = 1, #owners, 2 do
  if owners[i + 1] == ARGV[1] then
    redis.call('HDEL', KEYS[1], owners[i])
    redis.call('HDEL', KEYS[2], owners[i])
    redis.call('ZREM', KEYS[3], owners[i])
    local seq = redis.call('INCR', KEYS[4])
    redis.call('PUBLISH', ARGV[2], cjson.encode({s = seq, k = 'removed', id = owners[i], node = ARGV[1]}))
  end
end
redis.call('ZREM', KEYS[5], ARGV[1])
redis.call('ZREM', KEYS[6], ARGV[1])
local seq = redis.call('INCR', KEYS[4])
redis.call('PUBLISH', ARGV[2], cjson.encode({s = seq, k = 'down', node = ARGV[1]}))
return 1`,
  },
  // KEYS leases gone(node); ARGV node leaseMs [now]. The lease's end, or -1: declared dead.
  leaseRefresh: {
    numberOfKeys: 2,
    lua: `${NOW}
if redis.call('EXISTS', KEYS[2]) == 1 then return -1 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[1])
return now + tonumber(ARGV[2])`,
  },
  // Claims the clean-up of one node whose lease ran out (or whose claimer died before it was done):
  // the lease leaves the set in the same script that claims it, so exactly one node gets it.
  // KEYS leases reaping; ARGV me claimMs goneMs prefix [now]. The node claimed, or false.
  leaseClaim: {
    numberOfKeys: 2,
    lua: `${NOW}
local victim = nil
for _, node in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now)) do
  if node ~= ARGV[1] then victim = node break end
end
if victim then
  redis.call('ZREM', KEYS[1], victim)
else
  for _, node in ipairs(redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now)) do
    if node ~= ARGV[1] then victim = node break end
  end
end
if not victim then return false end
redis.call('ZADD', KEYS[2], now + tonumber(ARGV[2]), victim)
redis.call('SET', ARGV[4] .. 'gone:' .. victim, ARGV[1], 'PX', tonumber(ARGV[3]))
return victim`,
  },
  // KEYS epoch; ARGV a new random value. The epoch of this Redis (set now if it had none).
  epoch: {
    numberOfKeys: 1,
    lua: `
redis.call('SET', KEYS[1], ARGV[1], 'NX')
return redis.call('GET', KEYS[1])`,
  },
  // Redis came back without its data, and a node this one knew of before is not in it: the node
  // is given a lease and its running matches are put back, so that if it does not come back
  // within that lease, the usual clean-up (leaseClaim, one survivor) records them and tells
  // everyone it is down. Nothing is done for a node already known again (it came back, or another
  // survivor did this first) or declared dead.
  // KEYS leases gone(node) entries owners order seq; ARGV node graceMs channel id entryJson ... [now]
  nodeAdopt: {
    numberOfKeys: 6,
    lua: `${NOW}
if redis.call('EXISTS', KEYS[2]) == 1 or redis.call('ZSCORE', KEYS[1], ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[1])
for i = 4, #ARGV - 1, 2 do
  if not redis.call('HGET', KEYS[4], ARGV[i]) then
    local seq = redis.call('INCR', KEYS[6])
    redis.call('HSET', KEYS[4], ARGV[i], ARGV[1])
    redis.call('ZADD', KEYS[5], seq, ARGV[i])
    redis.call('HSET', KEYS[3], ARGV[i], ARGV[i + 1])
    redis.call('PUBLISH', ARGV[3], '{"s":' .. seq .. ',"k":"put","e":' .. ARGV[i + 1] .. '}')
  end
end
return 1`,
  },
  // Takes a connection slot of one address if the live nodes together hold fewer than the limit.
  // A node counts while it holds a lease: one whose lease ran out and whose clean-up was claimed
  // has left the set, so its slots are free from that moment.
  // KEYS leases addresses(me); ARGV address limit prefix. 1: taken; 0: the limit is reached.
  addressOpen: {
    numberOfKeys: 2,
    lua: `
local total = 0
for _, node in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  total = total + tonumber(redis.call('HGET', ARGV[3] .. 'addr:' .. node, ARGV[1]) or '0')
end
if total >= tonumber(ARGV[2]) then return 0 end
redis.call('HINCRBY', KEYS[2], ARGV[1], 1)
return 1`,
  },
  // KEYS addresses(me); ARGV address
  addressClose: {
    numberOfKeys: 1,
    lua: `
if redis.call('HINCRBY', KEYS[1], ARGV[1], -1) <= 0 then redis.call('HDEL', KEYS[1], ARGV[1]) end
return 1`,
  },
  // This node's counts as it knows them, after Redis came back (perhaps a new one, empty).
  // KEYS addresses(me); ARGV address count address count ...
  addressReplace: {
    numberOfKeys: 1,
    lua: `
redis.call('DEL', KEYS[1])
for i = 1, #ARGV - 1, 2 do redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
return 1`,
  },
  // One token from each of several buckets if every one has a token, else none (AddressCounter.takeTokens,
  // and takeGameNew with one bucket under its gameNew key: the same fields t and at).
  // KEYS bucket(key)...; ARGV capacity refillMs (per key) [now]. {0, 0}: taken; else {i, ms}: bucket i
  // (1-based) has no token for ms. The number of keys comes first in the call (numberOfKeys unset).
  tokensTake: {
    lua: `${NOW}
local tokens = {}
for i = 1, #KEYS do
  local per = tonumber(ARGV[2 * i - 1])
  local refill = tonumber(ARGV[2 * i])
  local bucket = redis.call('HMGET', KEYS[i], 't', 'at')
  local t = tonumber(bucket[1]) or per
  local at = tonumber(bucket[2]) or now
  t = math.min(per, t + math.max(0, now - at) * per / refill)
  if t < 1 then return {i, math.ceil((1 - t) * refill / per)} end
  tokens[i] = t
end
for i = 1, #KEYS do
  redis.call('HSET', KEYS[i], 't', tostring(tokens[i] - 1), 'at', now)
  redis.call('PEXPIRE', KEYS[i], tonumber(ARGV[2 * i]))
end
return {0, 0}`,
  },
  // KEYS lease(name) leaseEpoch(name) gone(node); ARGV node ms now
  // "EPOCH NODE" of the holder after the claim (this node's when it was free, ran out, or was
  // already its own); an empty text when this node was declared dead (it may hold nothing).
  namedLeaseClaim: {
    numberOfKeys: 3,
    lua: `${NOW}
if redis.call('EXISTS', KEYS[3]) == 1 then return '' end
local node = redis.call('HGET', KEYS[1], 'node')
local epoch = redis.call('HGET', KEYS[1], 'epoch')
if node and node ~= ARGV[1] and tonumber(redis.call('HGET', KEYS[1], 'until')) >= now then return epoch .. ' ' .. node end
if node ~= ARGV[1] then epoch = tostring(redis.call('INCR', KEYS[2])) end
redis.call('HSET', KEYS[1], 'node', ARGV[1], 'epoch', epoch, 'until', tostring(now + tonumber(ARGV[2])))
return epoch .. ' ' .. ARGV[1]`,
  },
  // KEYS lease(name); ARGV node: frees the lease when this node holds it.
  namedLeaseRelease: {
    numberOfKeys: 1,
    lua: `
if redis.call('HGET', KEYS[1], 'node') == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 0`,
  },
} as const;

export type ScriptName = keyof typeof SCRIPTS;

/** The scripts as commands of `redis` (EVALSHA, loaded again by ioredis after a restart). */
export function defineScripts(redis: Redis): void {
  for (const [name, script] of Object.entries(SCRIPTS)) redis.defineCommand(name, script);
}

/** Runs one of the scripts. */
export function runScript(redis: Redis, name: ScriptName, keys: readonly string[], args: readonly (string | number)[]): Promise<unknown> {
  const command = (redis as unknown as Record<ScriptName, (...params: (string | number)[]) => Promise<unknown>>)[name];
  return command.call(redis, ...keys, ...args);
}

export { GONE_MS };
