import { LIMIT_SPECS } from '../../../src/gateways/server-limits.js';
import { ATTACKER, OPERATOR, attackerNetworkAddress, bystanderAddress } from '../addresses.js';
import type { Attack, AttackContext } from '../attack.js';
import { CocoPeer, gameNew } from '../coco-peer.js';
import { http } from '../http-client.js';
import { inParallel } from '../net.js';
import { MASTER_PASSWORD, WRONG_PASSWORD_PREFIX } from '../server.js';

/** A tournament request any server accepts but for its password: the password is what is tried. */
function tournamentRequest(password: string): string {
  return JSON.stringify({ game: 'roshambo', entrants: [{ name: 'a', bot: null }, { name: 'b', bot: null }], password });
}

/**
 * The most wrong passwords a server with exponential back-off checks in `seconds`: the free ones,
 * then one more each time a back-off (first `first` seconds, doubling) has run out.
 */
export function mostChecked(seconds: number, free: number, first: number): number {
  return free + 1 + Math.floor(Math.log2(seconds / first + 1));
}

export const passwordBackoffReset: Attack = {
  name: 'password-backoff-reset',
  door: 'HTTP',
  summary: 'wrong master passwords (POST /api/tournaments), and after every third one a join of the attacker\'s own password-protected match with its right password',
  async run(context) {
    const port = context.server.wsPort;
    const joiner = await CocoPeer.open(context.net, context.server.url, ATTACKER);
    const own = 'own-match-secret';
    const created = await joiner.request(gameNew('roshambo', 'own', { players: 2, password: own, args: { rounds: '1' } }), 'GameNew');
    if (!('Ok' in created.id)) return context.note(`the attacker's own match was refused: ${created.id.Err}`);
    const id = created.id.Ok;
    const outcome = { checked: 0, heldBack: 0, other: [] as number[], joined: 0, joinRefused: '' };
    const cycles = context.scale(60, 1000);
    const began = performance.now();
    for (let cycle = 0; cycle < cycles && joiner.isOpen; cycle++) {
      for (let i = 0; i < 3; i++) {
        const guess = `${WRONG_PASSWORD_PREFIX}${context.random.uint32().toString(36)}`;
        const { status } = await http(port, '/api/tournaments', ATTACKER, { method: 'POST', body: tournamentRequest(guess), headers: { 'content-type': 'application/json' } });
        context.tried();
        if (status === 403) outcome.checked++;
        else if (status === 429) outcome.heldBack++;
        else outcome.other.push(status);
      }
      // The right password of a secret of one's own: it must not wipe the failures of another.
      joiner.send({ type: 'LobbyJoinMatch', id, name: `j${cycle}`, password: own });
      const joined = await joiner.until('LobbyJoinedMatch');
      if (joined && 'Ok' in joined.info) {
        outcome.joined++;
        joiner.send({ type: 'LobbyLeaveMatch' });
        await joiner.until('LobbyLeavedMatch');
      } else outcome.joinRefused ||= joined && 'Err' in joined.info ? joined.info.Err : 'the connection closed';
    }
    const seconds = (performance.now() - began) / 1000;
    const free = LIMIT_SPECS['password-free-attempts'].default;
    const most = mostChecked(seconds, free, LIMIT_SPECS['password-backoff-seconds'].default);
    const seen = `${outcome.checked} checked, ${outcome.heldBack} held back in ${seconds.toFixed(1)} s${outcome.other.length ? `, other statuses ${outcome.other.join(', ')}` : ''}`;
    context.check(
      `right passwords of the attacker's own match do not reset the master password's back-off (at most ${most} of the guesses checked)`,
      outcome.checked <= most && outcome.heldBack > 0,
      seen,
    );
    context.note(`${seen}; ${outcome.joined} of ${cycles} joins with the right password${outcome.joinRefused ? ` (first refused: ${outcome.joinRefused})` : ''}`);
  },
};

/** What a GameNew burst from one address got: matches created, and the first refusal. */
interface Created {
  created: number;
  refused: number;
  firstRefusal: string;
}

/** Sends `count` GameNew from `address` on one connection (left open: the owner hears what happens to its matches). */
async function createMatches(context: AttackContext, address: string, count: number, label: string, verification: string | null = null): Promise<Created> {
  const result: Created = { created: 0, refused: 0, firstRefusal: '' };
  let client: CocoPeer;
  try {
    client = await CocoPeer.open(context.net, context.server.url, address);
  } catch {
    return { ...result, refused: count, firstRefusal: 'connection refused' };
  }
  for (let i = 0; i < count; i++) {
    client.send(gameNew('roshambo', `${label}-${i}`, { players: 2, args: { rounds: '1' }, verification }));
    context.tried();
  }
  for (let i = 0; i < count; i++) {
    const reply = await client.until('GameNew');
    if (!reply) {
      result.refused += count - i;
      result.firstRefusal ||= 'the connection closed';
      break;
    }
    if ('Ok' in reply.id) result.created++;
    else {
      result.refused++;
      result.firstRefusal ||= reply.id.Err;
    }
  }
  return result;
}

function add(total: Created, one: Created): void {
  total.created += one.created;
  total.refused += one.refused;
  total.firstRefusal ||= one.firstRefusal;
}

export const lobbyManyAddresses: Attack = {
  name: 'lobby-many-addresses',
  door: 'coco WebSocket',
  summary: '100 addresses of one /24 create 10 waiting matches each; then 100 networks do, until the lobby is full; an operator and a newcomer from other networks still create',
  async run(context) {
    const perAddress = LIMIT_SPECS['waiting-matches-per-address'].default;
    const oneNetwork: Created = { created: 0, refused: 0, firstRefusal: '' };
    await inParallel(context.scale(100, 250), 16, async (host) => add(oneNetwork, await createMatches(context, attackerNetworkAddress(40, host), perAddress, `net-${host}`)));
    const networkLimit = LIMIT_SPECS['waiting-matches-per-network'].default;
    context.check(
      `the addresses of one /24 together hold at most ${networkLimit} waiting matches`,
      oneNetwork.created <= networkLimit,
      `${oneNetwork.created} created, ${oneNetwork.refused} refused (first: ${oneNetwork.firstRefusal || 'none'})`,
    );
    // An operator setting up a class's matches with the master password is not held to one address's quota.
    const operatorCount = 2 * perAddress;
    const operator = await createMatches(context, OPERATOR, operatorCount, 'operator', MASTER_PASSWORD);
    context.check(
      `an operator with the master password creates ${operatorCount} waiting matches (past ${perAddress} per address)`,
      operator.created === operatorCount,
      `${operator.created} created${operator.firstRefusal ? ` (first refusal: ${operator.firstRefusal})` : ''}`,
    );
    // Many networks, each within its quota, fill the lobby.
    const many: Created = { created: 0, refused: 0, firstRefusal: '' };
    await inParallel(context.scale(100, 200), 16, async (k) => add(many, await createMatches(context, attackerNetworkAddress(41 + k, 0), perAddress, `many-${k}`)));
    // Someone from a network holding no match comes to a full lobby.
    const newcomer = await createMatches(context, bystanderAddress(0), 1, 'bystander');
    context.check(
      'a newcomer from a network holding no match creates one when the lobby is full',
      newcomer.created === 1,
      newcomer.firstRefusal || 'created',
    );
    context.note(
      `one /24: ${oneNetwork.created} created; operator: ${operator.created}; ${context.scale(100, 200)} networks: ${many.created} created, ${many.refused} refused (first: ${many.firstRefusal || 'none'})`,
    );
  },
};

export const FAIRNESS_ATTACKS: readonly Attack[] = [passwordBackoffReset, lobbyManyAddresses];
