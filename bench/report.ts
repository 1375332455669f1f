/**
 * Percentiles, ranges over repeated runs, ratios to the relay, and Markdown tables: the shared
 * arithmetic and layout of the benchmark's reports.
 */

export interface Percentiles {
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
}

/** Nearest-rank percentiles of latencies in ms, rounded to 0.01 ms. */
export function percentiles(values: readonly number[]): Percentiles {
  const sorted = Float64Array.from(values).sort();
  const at = (p: number): number => round2(sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0);
  return { p50: at(0.5), p99: at(0.99), max: round2(sorted.at(-1) ?? 0) };
}

export function round2(value: number): number {
  return Math.round(value * 100) / 100;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** A number for a table: thousands separated, `digits` decimals. */
export function format(value: number, digits = 0): string {
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** "a-b" over runs, or the one value. */
export function range(values: readonly number[], digits = 0): string {
  if (values.length === 0) return 'n/a';
  const low = Math.min(...values);
  const high = Math.max(...values);
  return format(low, digits) === format(high, digits) ? format(low, digits) : `${format(low, digits)}-${format(high, digits)}`;
}

/**
 * A figure of cocod as a multiple of the relay's: one ratio per repetition (cocod's run against the
 * relay run of the same repetition, next to it in time), shown as their range.
 */
export function ratios(cocod: readonly number[], relay: readonly number[]): number[] {
  const out: number[] = [];
  for (let i = 0; i < Math.min(cocod.length, relay.length); i++) if (relay[i]! > 0) out.push(cocod[i]! / relay[i]!);
  return out;
}

export function ratioRange(values: readonly number[]): string {
  return values.length === 0 ? 'n/a' : `${range(values, 2)} x`;
}

export function markdownTable(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]): string => `| ${cells.join(' | ')} |`;
  return [line(headers), line(headers.map((_, i) => (i < 2 ? '---' : '---:'))), ...rows.map(line)].join('\n');
}

/**
 * One column of a report: its header, how to read the figure from a run, its decimals, and
 * whether a ratio to the relay means anything for it.
 */
export interface Column<Run> {
  readonly header: string;
  readonly value: (run: Run) => number | null;
  readonly digits?: number;
  readonly ratio?: boolean;
}

/**
 * Which ratios a group of runs gets: each cocod variant against the relay, and, when cocod ran
 * with several `--nodes` values, each further variant against the first (how it scales).
 */
function comparisons(labels: readonly string[], relayLabel: string): [string, string][] {
  const others = labels.filter((label) => label !== relayLabel);
  return [...(labels.includes(relayLabel) ? others.map((label): [string, string] => [label, relayLabel]) : []), ...others.slice(1).map((label): [string, string] => [label, others[0]!])];
}

/** Per repetition, the ratio of a figure of `label`'s run to the same figure of `base`'s run. */
function pairedRatios<Run>(column: Column<Run>, runs: readonly Labelled<Run>[], label: string, base: string): number[] {
  return runs.flatMap((entry) => {
    if (entry.label !== label) return [];
    const other = runs.find((candidate) => candidate.label === base && candidate.repetition === entry.repetition);
    const a = column.value(entry.run);
    const b = other ? column.value(other.run) : null;
    return a === null || b === null ? [] : ratios([a], [b]);
  });
}

export interface Labelled<Run> {
  readonly label: string;
  readonly repetition: number;
  readonly run: Run;
}

/**
 * Rows for one group of runs (e.g. one offered rate): each run, then, when there are several runs
 * of a server, the range of each figure, then the ranges of the ratios (see `comparisons`).
 * `runs` are in the order they ran, labelled by server and repetition.
 */
export function groupRows<Run>(columns: readonly Column<Run>[], runs: readonly Labelled<Run>[], relayLabel = 'relay'): string[][] {
  const rows: string[][] = [];
  const cell = (value: number | null, digits = 0): string => (value === null ? 'n/a' : format(value, digits));
  for (const { label, repetition, run } of runs) rows.push([`#${repetition}`, label, ...columns.map((column) => cell(column.value(run), column.digits))]);
  const labels = [...new Set(runs.map((entry) => entry.label))];
  const byLabel = (label: string): Run[] => runs.filter((entry) => entry.label === label).map((entry) => entry.run);
  const series = (label: string, column: Column<Run>): number[] => byLabel(label).map(column.value).filter((value): value is number => value !== null);
  for (const label of labels) {
    if (byLabel(label).length < 2) continue;
    rows.push([`${byLabel(label).length} runs`, label, ...columns.map((column) => range(series(label, column), column.digits))]);
  }
  for (const [label, base] of comparisons(labels, relayLabel)) {
    rows.push(['ratio', `${label} / ${base}`, ...columns.map((column) => (column.ratio ? ratioRange(pairedRatios(column, runs, label, base)) : ''))]);
  }
  return rows;
}

/** The same ratios for the JSON output: by comparison, by column, one per repetition. */
export function ratioSummary<Run>(columns: readonly Column<Run>[], runs: readonly Labelled<Run>[], relayLabel = 'relay'): Record<string, Record<string, number[]>> {
  const labels = [...new Set(runs.map((entry) => entry.label))];
  return Object.fromEntries(
    comparisons(labels, relayLabel).map(([label, base]) => [
      `${label} / ${base}`,
      Object.fromEntries(columns.filter((column) => column.ratio).map((column) => [column.header, pairedRatios(column, runs, label, base).map(round2)])),
    ]),
  );
}
