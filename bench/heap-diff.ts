/**
 * What grew between two V8 heap snapshots, by constructor: the memory benchmark's breakdown
 * (BENCH_HEAP_SNAPSHOTS) and a tool of its own:
 *
 *   node dist/bench/heap-diff.js BEFORE.heapsnapshot AFTER.heapsnapshot COUNT [ROWS]
 *
 * prints, for each kind of heap object, how many more there are per COUNT (connections, matches)
 * and how many more bytes (their own size, what DevTools calls "shallow"), largest first: the
 * "Comparison" view of DevTools, as text and divided by what was added. Objects are grouped by
 * constructor, closures by function name, the rest by V8's own kind ((string), (array) with its
 * role, (code), system objects).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Count and bytes of one kind of object in one snapshot. */
export interface KindTotal {
  count: number;
  bytes: number;
}

interface SnapshotFile {
  readonly snapshot: { readonly meta: { readonly node_fields: string[]; readonly node_types: [string[], ...unknown[]] } };
  readonly nodes: number[];
  readonly strings: string[];
}

/** The key a node is counted under: objects by constructor, closures by name, the rest by kind. */
function kindOf(type: string, name: string): string {
  switch (type) {
    case 'object':
      return name;
    case 'closure':
      return `closure ${name || '(anonymous)'}`;
    case 'native':
      return `native ${name}`;
    case 'array':
      return `(array) ${name}`;
    case 'hidden':
      // Contexts (the variables a closure keeps) and the like: "system / Context".
      return name.startsWith('system / ') ? name : `(hidden) ${name}`;
    default:
      return `(${type})`;
  }
}

/** Every kind of object in a snapshot file, with its count and bytes. */
export function heapByKind(path: string): Map<string, KindTotal> {
  const file = JSON.parse(readFileSync(path, 'utf8')) as SnapshotFile;
  const fields = file.snapshot.meta.node_fields;
  const types = file.snapshot.meta.node_types[0];
  const width = fields.length;
  const typeAt = fields.indexOf('type');
  const nameAt = fields.indexOf('name');
  const sizeAt = fields.indexOf('self_size');
  const totals = new Map<string, KindTotal>();
  for (let i = 0; i < file.nodes.length; i += width) {
    const key = kindOf(types[file.nodes[i + typeAt]!]!, file.strings[file.nodes[i + nameAt]!]!);
    const total = totals.get(key);
    const bytes = file.nodes[i + sizeAt]!;
    if (total) {
      total.count++;
      total.bytes += bytes;
    } else {
      totals.set(key, { count: 1, bytes });
    }
  }
  return totals;
}

/** One row of the difference: what `per` more of something added of one kind of object. */
export interface KindGrowth {
  readonly kind: string;
  readonly countPer: number;
  readonly bytesPer: number;
}

/** The kinds that grew (or shrank) from `before` to `after`, per `per` things added, largest first. */
export function heapGrowth(before: Map<string, KindTotal>, after: Map<string, KindTotal>, per: number): KindGrowth[] {
  const kinds = new Set([...before.keys(), ...after.keys()]);
  const rows: KindGrowth[] = [];
  for (const kind of kinds) {
    const a = before.get(kind) ?? { count: 0, bytes: 0 };
    const b = after.get(kind) ?? { count: 0, bytes: 0 };
    if (a.bytes === b.bytes && a.count === b.count) continue;
    rows.push({ kind, countPer: (b.count - a.count) / per, bytesPer: (b.bytes - a.bytes) / per });
  }
  return rows.sort((x, y) => Math.abs(y.bytesPer) - Math.abs(x.bytesPer));
}

/** A Markdown table of the `rows` largest growths, with the total of all of them. */
export function growthTable(growth: readonly KindGrowth[], rows: number, unit: string): string {
  const total = growth.reduce((sum, row) => sum + row.bytesPer, 0);
  const shown = growth.slice(0, rows);
  const rest = total - shown.reduce((sum, row) => sum + row.bytesPer, 0);
  const lines = [`| kind | objects per ${unit} | bytes per ${unit} |`, '|---|---:|---:|'];
  for (const row of shown) lines.push(`| ${row.kind.replace(/\|/g, '\\|').slice(0, 80)} | ${row.countPer.toFixed(2)} | ${Math.round(row.bytesPer)} |`);
  lines.push(`| everything else (${growth.length - shown.length} kinds) | | ${Math.round(rest)} |`);
  lines.push(`| **JS heap, total** | | **${Math.round(total)}** |`);
  return lines.join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [before, after, countText, rowsText] = process.argv.slice(2);
  if (!before || !after || !countText) {
    process.stderr.write('usage: node dist/bench/heap-diff.js BEFORE.heapsnapshot AFTER.heapsnapshot COUNT [ROWS]\n');
    process.exit(2);
  }
  process.stdout.write(`${growthTable(heapGrowth(heapByKind(before), heapByKind(after), Number(countText)), Number(rowsText ?? 25), 'thing added')}\n`);
}
