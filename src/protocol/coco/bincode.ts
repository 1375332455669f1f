import { REPLY_VARIANT_ORDER, type HistoryError, type MatchData } from './messages.js';
import { HISTORY_ERRORS } from './messages.js';

/**
 * bincode 1 with default options, as the reference client decodes a binary HistoryMatch reply:
 * enum tags are u32 LE, lengths u64 LE, integers fixed width LE. Only what that reply needs.
 */
class BincodeWriter {
  private readonly parts: Buffer[] = [];

  u32(value: number): this {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(value);
    this.parts.push(b);
    return this;
  }

  u64(value: number): this {
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(BigInt(value));
    this.parts.push(b);
    return this;
  }

  bytes(value: Uint8Array): this {
    this.u64(value.length);
    this.parts.push(Buffer.from(value));
    return this;
  }

  string(value: string): this {
    return this.bytes(Buffer.from(value, 'utf8'));
  }

  finish(): Buffer {
    return Buffer.concat(this.parts);
  }
}

class BincodeReader {
  private offset = 0;
  constructor(private readonly buffer: Buffer) {}

  u32(): number {
    const v = this.buffer.readUInt32LE(this.offset);
    this.offset += 4;
    return v;
  }

  u64(): number {
    const v = this.buffer.readBigUInt64LE(this.offset);
    this.offset += 8;
    if (v > BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError('length too large');
    return Number(v);
  }

  bytes(): Buffer {
    const length = this.u64();
    if (this.offset + length > this.buffer.length) throw new RangeError('truncated');
    const v = this.buffer.subarray(this.offset, this.offset + length);
    this.offset += length;
    return v;
  }

  string(): string {
    return this.bytes().toString('utf8');
  }

  get done(): boolean {
    return this.offset === this.buffer.length;
  }
}

const HISTORY_MATCH_TAG = REPLY_VARIANT_ORDER.indexOf('HistoryMatch');

export type HistoryMatchOutcome = { readonly Ok: MatchData } | { readonly Err: HistoryError };

/** The binary frame of a HistoryMatch reply. */
export function encodeHistoryMatchReply(outcome: HistoryMatchOutcome): Buffer {
  const w = new BincodeWriter().u32(HISTORY_MATCH_TAG);
  if ('Err' in outcome) return w.u32(1).u32(HISTORY_ERRORS.indexOf(outcome.Err)).finish();
  const data = outcome.Ok;
  w.u32(0).string(data.id).string(data.game_name);
  const args = Object.entries(data.args);
  w.u64(args.length);
  for (const [key, value] of args) w.string(key).string(value);
  w.u64(data.players.length);
  for (const player of data.players) w.string(player);
  // bot_count is a u32 in the reference's MatchData: 4 bytes, or its client reads past the end.
  return w.u32(data.bot_count).bytes(data.history).finish();
}

/** Decodes a binary HistoryMatch reply (our client's side). */
export function decodeHistoryMatchReply(frame: Buffer): HistoryMatchOutcome {
  const r = new BincodeReader(frame);
  if (r.u32() !== HISTORY_MATCH_TAG) throw new Error('not a HistoryMatch reply');
  if (r.u32() === 1) {
    const error = HISTORY_ERRORS[r.u32()];
    if (!error) throw new Error('unknown history error');
    return { Err: error };
  }
  const id = r.string();
  const game_name = r.string();
  const args: Record<string, string> = {};
  for (let n = r.u64(); n > 0; n--) args[r.string()] = r.string();
  const players: string[] = [];
  for (let n = r.u64(); n > 0; n--) players.push(r.string());
  const bot_count = r.u32();
  const history = Uint8Array.from(r.bytes());
  if (!r.done) throw new Error('trailing bytes in HistoryMatch reply');
  return { Ok: { id, game_name, args, players, bot_count, history } };
}
