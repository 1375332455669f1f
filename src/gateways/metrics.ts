import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';

/** The server's front doors, as the `front_door` label of the connection gauge. */
export const FRONT_DOORS = ['coco', 'clobber', 'socha', 'http'] as const;
export type FrontDoor = (typeof FRONT_DOORS)[number];

/**
 * Where the gauges read their values when /metrics is scraped. The numbers live with the objects
 * that own them (the lobby, the gateways, the store); reading them on demand means nobody has to
 * remember to push a value, and an idle server costs nothing between scrapes.
 */
export interface MetricSources {
  /** Open connections by front door; a door that is off may be left out (it reads 0). */
  connections(): Readonly<Partial<Record<FrontDoor, number>>>;
  matches(): { readonly waiting: number; readonly running: number };
  /** Bytes accepted for clients that they have not taken yet (responses, socket buffers). */
  outboundQueuedBytes(): number;
  /** Requests the history store has been given and not answered yet. */
  storeQueueDepth(): number;
  /** Bytes held for clients as the memory budget counts them (client-memory.ts); left out, the gauge is not served. */
  clientMemoryBytes?(): number;
}

export interface MetricsOptions {
  /** Also register prom-client's process metrics (CPU, memory, event-loop lag); default true. */
  readonly processMetrics?: boolean;
}

/**
 * The server's Prometheus metrics, in a registry of their own (never prom-client's global one, so
 * two servers in one process, as in tests, keep separate numbers). Pass the object to whoever
 * counts something; gauges read their `MetricSources` at scrape time.
 */
export class ServerMetrics {
  readonly registry = new Registry();
  private readonly refusedTotal: Counter<'reason'>;
  private readonly movesTotal: Counter;

  constructor(
    private readonly sources: MetricSources,
    options: MetricsOptions = {},
  ) {
    const registers = [this.registry];
    new Gauge({
      name: 'cocod_connections',
      help: 'Open connections, by front door.',
      labelNames: ['front_door'],
      registers,
      collect() {
        const counts = sources.connections();
        for (const door of FRONT_DOORS) this.set({ front_door: door }, counts[door] ?? 0);
      },
    });
    new Gauge({
      name: 'cocod_matches',
      help: 'Matches in the lobby, by state (waiting for players, or running).',
      labelNames: ['state'],
      registers,
      collect() {
        const { waiting, running } = sources.matches();
        this.set({ state: 'waiting' }, waiting);
        this.set({ state: 'running' }, running);
      },
    });
    new Gauge({
      name: 'cocod_outbound_queued_bytes',
      help: 'Bytes accepted for clients that they have not taken yet.',
      registers,
      collect() {
        this.set(sources.outboundQueuedBytes());
      },
    });
    if (sources.clientMemoryBytes) {
      const read = sources.clientMemoryBytes.bind(sources);
      new Gauge({
        name: 'cocod_client_memory_bytes',
        help: 'Bytes held for clients, as the memory budget counts them (client-memory-server bounds it).',
        registers,
        collect() {
          this.set(read());
        },
      });
    }
    new Gauge({
      name: 'cocod_store_queue_depth',
      help: 'Requests waiting for the history store.',
      registers,
      collect() {
        this.set(sources.storeQueueDepth());
      },
    });
    this.movesTotal = new Counter({
      name: 'cocod_moves_total',
      help: 'Lines a player sent that its game read.',
      registers,
    });
    this.refusedTotal = new Counter({
      name: 'cocod_requests_refused_total',
      help: 'Requests refused to protect the server, by reason.',
      labelNames: ['reason'],
      registers,
    });
    if (options.processMetrics ?? true) collectDefaultMetrics({ register: this.registry });
  }

  /** A request was refused; `reason` is a short snake_case name (few distinct values). */
  refused(reason: string): void {
    this.refusedTotal.inc({ reason });
  }

  /** A game read a line a player sent. */
  movePlayed(): void {
    this.movesTotal.inc();
  }

  /** The cheap numbers, for /health. */
  snapshot(): { connections: Readonly<Partial<Record<FrontDoor, number>>>; matches: { waiting: number; running: number } } {
    return { connections: this.sources.connections(), matches: this.sources.matches() };
  }

  /** The Content-Type of `text()`. */
  get contentType(): string {
    return this.registry.contentType;
  }

  /** Every metric in the Prometheus text format. */
  text(): Promise<string> {
    return this.registry.metrics();
  }
}
