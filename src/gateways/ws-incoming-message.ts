import { EventEmitter } from 'node:events';
/**
 * Follows the frames a WebSocket client sends, reading only their headers, to know how many
 * fragments the message being received has so far and how many of its bytes the server holds.
 *
 * Why not ask `ws`: its receiver bounds a message only by its total size (`maxPayload`), keeps each
 * fragment as a Buffer of its own (a one-byte fragment costs over a hundred bytes of heap), and
 * tells nobody how much it holds. 16,383 one-byte fragments thus cost 2.6 MiB per connection while
 * every byte count stays under 1 MiB. So the same bytes `ws` reads from the socket are fed here
 * too; a message past its fragment limit is the client's fault and its connection is closed.
 *
 * A state machine fed with chunks (RFC 6455 section 5.2), testable with raw bytes and no socket.
 * It trusts nothing it reads: the bytes it counts are those that arrived, never a claimed length.
 * A frame `ws` finds malformed closes the connection there; what this makes of it meanwhile does
 * not matter.
 */
/**
 * What ws holds for each fragment beyond its payload (a Buffer object and a slot in its list),
 * counted as held so that a message of many tiny fragments costs what it really costs: measured
 * about 640 bytes of RSS per held one-byte fragment (128 connections of 64 fragments against 128
 * of one, node 20, ws 8); rounded up.
 */
export const FRAGMENT_OVERHEAD_BYTES = 1024;

/** What sees a socket's chunks before its 'data' listeners do (gateSocketData). */
export interface SocketDataGate {
  /** False keeps the chunk from every 'data' listener. */
  admitChunk(chunk: Buffer): boolean;
}

const GATE = Symbol('socket data gate');
type GatedSocket = EventEmitter & { [GATE]?: SocketDataGate };
const plainEmit = EventEmitter.prototype.emit;

/**
 * Shows `gate` every chunk the socket reads before any of its 'data' listeners (ws's) gets it; a
 * chunk the gate refuses reaches none of them. ws reads its socket through a 'data' listener that
 * it adds, removes and calls on its own terms, so the socket's `emit` is the one place to see a
 * chunk first without taking ws's listener over.
 */
export function gateSocketData(socket: EventEmitter, gate: SocketDataGate): void {
  // Node's sockets (net.Socket, tls.TLSSocket) emit through EventEmitter's own `emit`, which the
  // gate calls on.
  (socket as GatedSocket)[GATE] = gate;
  socket.emit = gatedEmit;
}

/**
 * One `emit` for every gated socket, which finds its gate on the socket: a closure per socket
 * would cost each idle connection its bytes, and show the stream's call of `emit` a different
 * function for every socket (a call the compiler then cannot inline). Events other than 'data'
 * pass through with their arguments as they are.
 */
function gatedEmit(this: GatedSocket, event: string | symbol, chunk?: unknown): boolean {
  if (event === 'data' && !this[GATE]!.admitChunk(chunk as Buffer)) return false;
  // A stream emits 'data' with its chunk alone: that call makes no array (`arguments` is not
  // materialised for its length nor for Reflect.apply).
  return arguments.length === 2 ? plainEmit.call(this, event, chunk) : Reflect.apply(plainEmit, this, arguments);
}

export class IncomingMessageTracker {
  /**
   * The header of the frame being read (at most 14 bytes: 2, 8 of extended length, 4 of mask), kept
   * as numbers rather than a buffer of its own (an idle server holds one tracker per connection):
   * its first two bytes, and the extended length as read so far. The mask is not needed.
   */
  private byte0 = 0;
  private byte1 = 0;
  private extendedLength = 0;
  private headerHave = 0;
  /** Payload bytes of the current frame still to come; -1 while its header is being read. */
  private payloadLeft = -1;
  /** Whether the current frame is a data frame (text, binary, continuation), and its FIN bit. */
  private dataFrame = false;
  private finalFrame = false;
  private fragmentCount = 0;
  private bytesHeld = 0;
  /** The most fragments seen within the chunk being fed (a message may also end within it). */
  private peak = 0;

  /** Data frames of the message being received (0 between messages). */
  get fragments(): number {
    return this.fragmentCount;
  }

  /** Payload bytes of the message being received that arrived so far (0 between messages). */
  get payloadBytes(): number {
    return this.bytesHeld;
  }

  /** What the message being received costs the server so far: its payload and its fragments' overhead. */
  get heldBytes(): number {
    return this.bytesHeld + this.fragmentCount * FRAGMENT_OVERHEAD_BYTES;
  }

  /** Reads a chunk of what the client sent; returns the most fragments its unfinished message had within it. */
  feed(chunk: Uint8Array): number {
    this.peak = this.fragmentCount;
    let at = 0;
    while (at < chunk.length) {
      if (this.payloadLeft < 0) {
        at = this.readHeader(chunk, at);
        continue;
      }
      const take = Math.min(this.payloadLeft, chunk.length - at);
      at += take;
      this.payloadLeft -= take;
      if (this.dataFrame) this.bytesHeld += take;
      if (this.payloadLeft === 0) this.endFrame();
    }
    return this.peak;
  }

  private readHeader(chunk: Uint8Array, from: number): number {
    let at = from;
    while (at < chunk.length && this.headerHave < this.headerLength()) {
      const byte = chunk[at++]!;
      if (this.headerHave === 0) this.byte0 = byte;
      else if (this.headerHave === 1) {
        this.byte1 = byte;
        this.extendedLength = 0;
      } else if (this.headerHave < 2 + this.extendedLengthBytes()) this.extendedLength = this.extendedLength * 256 + byte;
      this.headerHave++;
    }
    if (this.headerHave < this.headerLength()) return at;
    const opcode = this.byte0 & 0x0f;
    this.finalFrame = (this.byte0 & 0x80) !== 0;
    // Control frames (close, ping, pong: opcode 8 and up) may come between fragments and are no part of the message.
    this.dataFrame = opcode < 8;
    if (this.dataFrame) {
      // A text or binary frame starts a new message; a continuation adds a fragment to the current one.
      if (opcode !== 0) this.bytesHeld = 0;
      this.fragmentCount = opcode !== 0 ? 1 : this.fragmentCount + 1;
      this.peak = Math.max(this.peak, this.fragmentCount);
    }
    this.payloadLeft = this.payloadLength();
    this.headerHave = 0;
    if (this.payloadLeft === 0) this.endFrame();
    return at;
  }

  private endFrame(): void {
    this.payloadLeft = -1;
    if (this.dataFrame && this.finalFrame) {
      this.fragmentCount = 0;
      this.bytesHeld = 0;
    }
  }

  /** Bytes of the header, as far as known from what was read of it. */
  private headerLength(): number {
    if (this.headerHave < 2) return 2;
    const masked = (this.byte1 & 0x80) !== 0;
    return 2 + this.extendedLengthBytes() + (masked ? 4 : 0);
  }

  /** Bytes of the extended payload length (once the second byte is read). */
  private extendedLengthBytes(): number {
    const length7 = this.byte1 & 0x7f;
    return length7 === 126 ? 2 : length7 === 127 ? 8 : 0;
  }

  private payloadLength(): number {
    const length7 = this.byte1 & 0x7f;
    // Read big-endian, a byte at a time. A 64-bit length past 2^53 is nonsense that ws refuses; as
    // a double it is merely huge here.
    return length7 === 126 || length7 === 127 ? this.extendedLength : length7;
  }
}
