// The layers of DESIGN.md hold in the code: a module imports only from its own folder or from a
// folder below it, and no modules import each other in a circle (type imports included: a circle
// of types is a circle of meaning, and the next value import turns it into a load-order bug).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { ROOT } from '../support/processes.js';

/**
 * Each folder of src/ and what it may import besides itself: everything of a lower rank. The
 * order is DESIGN.md's, with the folders it does not draw put where their imports place them:
 * client (the coco client library) beside match on protocol; ratings under the store that keeps
 * them; tournament (driving matches through the lobby), names (the claimed player names the lobby's
 * joins are checked against) and bridges (programs on a machine) under the gateways, and the arena
 * (pairing queued programs, its matches driven as a tournament's are) between them; cluster (the seams across nodes, wrapping a node's gateways) and app (putting a
 * node together) under the command line.
 */
const RANKS: Readonly<Record<string, number>> = {
  util: 0,
  protocol: 1,
  client: 2,
  match: 2,
  games: 3,
  ratings: 3,
  store: 4,
  lobby: 5,
  tournament: 6,
  names: 6,
  bridges: 6,
  arena: 7,
  gateways: 8,
  cluster: 9,
  app: 10,
  cli: 11,
};

const SRC = join(ROOT, 'src');
const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^'";]*?from\s+'(\.{1,2}\/[^']+)'/g;

function productModules(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) productModules(path, out);
    else if (name.endsWith('.ts') && !name.endsWith('.test.ts') && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

/** Each module (path below src/, as .ts) and the modules of src/ it imports. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const path of productModules(SRC)) {
    const text = readFileSync(path, 'utf8');
    const targets: string[] = [];
    for (const match of text.matchAll(IMPORT)) {
      const target = resolve(dirname(path), match[1]!).replace(/\.js$/, '.ts');
      if (target.startsWith(`${SRC}/`)) targets.push(relative(SRC, target));
    }
    graph.set(relative(SRC, path), targets);
  }
  return graph;
}

const folderOf = (module: string): string => module.split('/')[0]!;

/** The circles of the graph (its strongly connected components of more than one module, or a self-import). */
function circles(graph: Map<string, string[]>): string[][] {
  // Tarjan's algorithm, iterative so that a deep chain of imports cannot overflow the stack.
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: [string, number][] = [[start, 0]];
    while (work.length > 0) {
      const top = work[work.length - 1]!;
      const [node, edge] = top;
      if (edge === 0) {
        index.set(node, next);
        low.set(node, next);
        next++;
        stack.push(node);
        onStack.add(node);
      }
      const edges = graph.get(node) ?? [];
      if (edge < edges.length) {
        top[1]++;
        const to = edges[edge]!;
        if (!index.has(to)) work.push([to, 0]);
        else if (onStack.has(to)) low.set(node, Math.min(low.get(node)!, index.get(to)!));
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1]![0];
        low.set(parent, Math.min(low.get(parent)!, low.get(node)!));
      }
      if (low.get(node) === index.get(node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== node);
        if (component.length > 1 || edges.includes(node)) found.push(component.sort());
      }
    }
  }
  return found;
}

test('every folder of src/ has a place in the layers', () => {
  const folders = new Set([...importGraph().keys()].map(folderOf));
  assert.deepEqual([...folders].filter((folder) => !(folder in RANKS)), []);
});

test('no module imports from a folder above its own', () => {
  const upward: string[] = [];
  for (const [module, targets] of importGraph()) {
    for (const target of targets) {
      const from = folderOf(module);
      const to = folderOf(target);
      if (from !== to && RANKS[to]! >= RANKS[from]!) upward.push(`${module} -> ${target}`);
    }
  }
  assert.deepEqual(upward, []);
});

test('no modules import each other in a circle', () => {
  assert.deepEqual(circles(importGraph()), []);
});

test('the checks see an upward import and a circle when there is one', () => {
  // The checker itself, on a made-up graph, so that a regex that matched nothing could not pass.
  const graph = new Map([
    ['a.ts', ['b.ts']],
    ['b.ts', ['c.ts']],
    ['c.ts', ['a.ts']],
    ['d.ts', []],
  ]);
  assert.deepEqual(circles(graph), [['a.ts', 'b.ts', 'c.ts']]);
  const real = importGraph();
  assert.ok(real.get('match/vis-feed.ts')!.includes('protocol/vis-validate.ts'), 'the graph holds the imports of a known module');
});
