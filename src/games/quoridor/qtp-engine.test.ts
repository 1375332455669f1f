import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { QtpEngine, runQtpEngine, QTP_COMMANDS } from './qtp-engine.js';
import { parseEngineArgs } from './qtp-engine-main.js';

const BUDGET = { nodes: 300 };

/** Feeds `input` to the engine over streams and returns everything it wrote. */
async function converse(input: string | Buffer): Promise<string> {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  let output = '';
  stdout.on('data', (chunk: Buffer) => (output += chunk.toString('latin1')));
  stdin.end(typeof input === 'string' ? Buffer.from(input, 'latin1') : input);
  await runQtpEngine(stdin, stdout, { budget: BUDGET, seed: 'test' });
  return output;
}

test('name, known_command and list_commands answer with = and a blank line', async () => {
  assert.equal(await converse('name\n'), '= Code Colosseum Quoridor\n\n');
  assert.equal(await converse('known_command playwall\nknown_command fly\nknown_command\n'), '= true\n\n= false\n\n= false\n\n');
  assert.equal(await converse('list_commands\n'), `= ${QTP_COMMANDS.join('\n')}\n\n`);
  assert.equal(QTP_COMMANDS.length, 13);
});

test('unknown commands get "? unknown command"; command names are case sensitive', async () => {
  assert.equal(await converse('fly\nNAME\nprotocol_version\n'), '? unknown command\n\n'.repeat(3));
});

test('boardsize accepts odd sizes 3..25 and answers syntax errors and unacceptable sizes', async () => {
  assert.equal(
    await converse('boardsize 5\nboardsize 25\nboardsize 3\nboardsize 4\nboardsize 27\nboardsize 1\nboardsize\nboardsize x\nboardsize -5\nboardsize 99999999999\n'),
    '=\n\n=\n\n=\n\n? unacceptable size\n\n? unacceptable size\n\n? unacceptable size\n\n? syntax error\n\n? syntax error\n\n? syntax error\n\n? syntax error\n\n',
  );
});

test('clear_board, walls, playmove, playwall, winner and undo keep the game', async () => {
  const engine = new QtpEngine({ budget: BUDGET });
  const say = async (line: string) => engine.execute(line);
  assert.equal(await say('boardsize 5'), '=\n\n');
  assert.equal(await say('clear_board'), '=\n\n');
  assert.equal(await say('walls 1'), '=\n\n');
  assert.equal(await say('playwall black B3 horizontal'), '=\n\n');
  assert.equal(await say('playwall b c5 h'), '? illegal move\n\n', 'no walls left');
  assert.equal(await say('playwall white c5 VERTICAL'), '=\n\n');
  assert.equal(await say('playwall white b4 v'), '? illegal move\n\n', 'no walls left for white either');
  assert.equal(await say('playmove w C2'), '=\n\n');
  assert.equal(await say('playmove w C2'), '? illegal move\n\n', 'no move onto its own square');
  assert.equal(await say('playmove white C3'), '? illegal move\n\n', 'B3 horizontal is above C2');
  assert.equal(await say('playmove white B2'), '=\n\n', 'consecutive moves of one colour are allowed');
  assert.equal(await say('playmove white F2'), '? illegal move\n\n', 'off the board');
  assert.equal(await say('playmove white 22'), '? syntax error\n\n');
  assert.equal(await say('playmove red B1'), '? syntax error\n\n');
  assert.equal(await say('playmove white'), '? syntax error\n\n');
  assert.equal(await say('playwall white A1 h'), '? illegal move\n\n', 'wall vertices start at row 2');
  assert.equal(await say('playwall white A3 sideways'), '? syntax error\n\n');
  assert.equal(await say('winner'), '= false\n\n');
  assert.equal(await say('undo 9'), '? cannot undo\n\n');
  assert.equal(await say('undo 2'), '=\n\n');
  assert.equal(await say('undo'), '=\n\n');
  assert.equal(await say('undo x'), '? syntax error\n\n');
  assert.equal(await say('undo'), '=\n\n');
  assert.equal(await say('undo'), '? cannot undo\n\n');
  assert.equal(await say('playwall white c5 v'), '=\n\n', 'undo gave the wall back');
  for (const move of ['C2', 'C3', 'C4']) assert.equal(await say(`playmove white ${move}`), '=\n\n');
  assert.equal(await say('playmove white c5'), '? illegal move\n\n', 'black stands on C5');
  assert.equal(await say('playmove white b4'), '=\n\n');
  assert.equal(await say('playmove white b5'), '=\n\n');
  assert.equal(await say('winner'), '= true white\n\n');
  assert.equal(await say('genmove black'), '? game is over\n\n');
  assert.equal(await say('playmove black c4'), '? illegal move\n\n', 'no moves after the end');
  assert.equal(await say('undo'), '=\n\n');
  assert.equal(await say('winner'), '= false\n\n');
  assert.equal(await say('walls 2'), '=\n\n');
  assert.equal(await say('walls two'), '? syntax error\n\n');
  assert.deepEqual([...engine.position.wallsLeft], [2, 2]);
  assert.equal(await say('clear_board'), '=\n\n');
  assert.deepEqual([...engine.position.wallsLeft], [2, 2], 'clear_board keeps the wall count');
  assert.equal(engine.position.moveCount, 0);
});

test('black wins when reaching row 1', async () => {
  assert.equal(
    await converse('boardsize 3\nclear_board\nplaymove black B2\nwinner\nplaymove black A2\nplaymove black A1\nwinner\n'),
    '=\n\n=\n\n=\n\n= false\n\n=\n\n=\n\n= true black\n\n',
  );
});

test('genmove answers a legal pawn move or a wall with a full-word orientation, and plays it', async () => {
  const engine = new QtpEngine({ budget: BUDGET, seed: 'g' });
  assert.equal(await engine.execute('boardsize 5'), '=\n\n');
  assert.equal(await engine.execute('clear_board'), '=\n\n');
  assert.equal(await engine.execute('walls 0'), '=\n\n');
  assert.equal(await engine.execute('genmove black'), '= C4\n\n', 'without walls the only sensible move is forward');
  assert.equal(engine.position.moveCount, 1);
  assert.equal(await engine.execute('genmove white'), '= C2\n\n');
  assert.match((await engine.execute('genmove b'))!, /^= [A-E][1-5]\n\n$/);
  assert.match((await engine.execute('genmove WHITE'))!, /^= [A-E][1-5]\n\n$/);
  assert.equal(engine.position.moveCount, 4);
  assert.equal(await engine.execute('genmove'), '? syntax error\n\n');
  assert.equal(await engine.execute('genmove green'), '? syntax error\n\n');
  await engine.execute('boardsize 9');
  await engine.execute('clear_board');
  await engine.execute('walls 10');
  for (const move of ['black E8', 'white E2', 'black E7', 'white E3', 'black E6', 'white E4']) await engine.execute(`playmove ${move}`);
  // Both pawns 5 steps from home; walls now pay. Whatever it picks must have the right shape.
  assert.match((await engine.execute('genmove black'))!, /^= [A-I][1-9]( horizontal| vertical)?\n\n$/);
});

test('showboard draws the board with letters, row numbers, walls and pawns', async () => {
  const output = await converse(
    'boardsize 5\nclear_board\nwalls 2\nplaywall white A5 horizontal\nplaywall black B3 vertical\n' +
      'playwall white C3 horizontal\nplaywall black D2 vertical\nplaymove black D5\nshowboard\n',
  );
  assert.equal(
    output,
    '=\n\n'.repeat(8) +
      [
        '=',
        '    A   B   C   D   E',
        '  +---+---+---+---+---+',
        '5 |   |   |   | B |   | 5   Black walls: 0',
        '  +=======+---+---+---+',
        '4 |   |   |   |   |   | 4   White walls: 0',
        '  +---+---+---+---+---+',
        '3 |   |   H   |   |   | 3',
        '  +---+---H=======+---+',
        '2 |   |   H   |   H   | 2',
        '  +---+---+---+---H---+',
        '1 |   |   | W |   H   | 1',
        '  +---+---+---+---+---+',
        '    A   B   C   D   E',
        '',
        '',
      ].join('\n'),
  );
});

test('a numeric id is echoed after = and ?', async () => {
  assert.equal(await converse('1 name\n22 fly\n3 winner\n'), '=1 Code Colosseum Quoridor\n\n?22 unknown command\n\n=3 false\n\n');
});

test('comments, blank lines, tabs, CR and control characters are handled as the spec says', async () => {
  assert.equal(
    await converse('# a comment line\n\n   \n\t\nname # trailing comment\r\nknown_command\tplaymove\r\nwin\x01ner\n\x7fwalls 3\x00\nboardsize 5 # é\xff\n'),
    '= Code Colosseum Quoridor\n\n= true\n\n= false\n\n=\n\n=\n\n',
  );
});

test('quit answers = and stops reading; later commands get no answer', async () => {
  assert.equal(await converse('quit\nname\n'), '=\n\n');
  assert.equal(await converse('name\nquit'), '= Code Colosseum Quoridor\n\n=\n\n', 'a last line without LF still counts');
});

test('a command line over the limit is refused once and skipped', async () => {
  const long = Buffer.concat([Buffer.from('name '), Buffer.alloc(70 * 1024, 0x61), Buffer.from('\nname\n')]);
  assert.equal(await converse(long), '? command too long\n\n= Code Colosseum Quoridor\n\n');
});

test('responses come in the order of the commands, also when the input arrives in pieces', async () => {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  let output = '';
  stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const done = runQtpEngine(stdin, stdout, { budget: BUDGET, seed: 't' });
  for (const piece of ['boa', 'rdsize 5\ncle', 'ar_board\n', 'genmove black\nwin', 'ner\nqu', 'it\n']) stdin.write(piece);
  await done;
  assert.match(output, /^=\n\n=\n\n= [A-E]\d( horizontal| vertical)?\n\n= false\n\n=\n\n$/);
});

test('engine arguments: --time, --nodes, --seed; unknown ones are ignored', () => {
  assert.deepEqual(parseEngineArgs(['--time', '0.5']).budget, { timeMs: 500 });
  assert.deepEqual(parseEngineArgs(['--nodes', '1000', '-seed', '42']).budget, { nodes: 1000 });
  assert.equal(parseEngineArgs(['-seed', '42']).seed, '42');
  assert.deepEqual(parseEngineArgs(['--whatever', 'x']).error, null);
  assert.match(parseEngineArgs(['--time', 'soon']).error!, /--time/);
  assert.equal(parseEngineArgs(['--help']).help, true);
});
