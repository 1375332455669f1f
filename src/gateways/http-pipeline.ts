import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** Answers one request; never rejects (its errors are answered or logged by whoever passes it). */
export type AnswerRequest = (request: IncomingMessage, response: ServerResponse) => Promise<void>;

interface Connection {
  readonly socket: Socket;
  /** Parsed, not started yet, in the order they came. */
  readonly waiting: [IncomingMessage, ServerResponse][];
  answering: boolean;
  /** Reading stopped by this pipeline (not by Node's own flow control). */
  paused: boolean;
}

/**
 * Answers the requests of one HTTP connection one at a time, in order: the next is started only
 * once the previous response is handed to the socket in full and the socket has drained, and once
 * `maxWaiting` requests wait, the connection is not read until they are answered.
 *
 * Node's HTTP server calls its handler for every pipelined request as soon as it is parsed, and
 * queues the responses; each handler then reads its record and fills its response's buffer while
 * the client reads nothing, so pipelined GETs of a large record held a copy per request without
 * limit. Node stops reading a connection only when the queued responses' bytes pass the socket's
 * high-water mark (`_http_server`'s `socket._paused`), which a handler that first awaits the store
 * never reaches. Here the handler runs only for the request being answered; the others wait
 * parsed (a few hundred bytes each), at most `maxWaiting` plus what one read of the socket brings.
 * Node resumes reading when its own reason to pause is gone, so a 'resume' while the pipeline is
 * full pauses the socket again (as Node's own onSocketResume does).
 */
export class RequestPipeline {
  private readonly connections = new WeakMap<Socket, Connection>();
  private waitingTotal = 0;

  constructor(
    /** Requests parsed and waiting on one connection past which it is no longer read (`http-pipelined-requests`). */
    private readonly maxWaiting: number,
    private readonly answer: AnswerRequest,
  ) {}

  /** Requests parsed and waiting for their turn, on all connections. */
  get waitingRequests(): number {
    return this.waitingTotal;
  }

  /** The server's 'request' handler. */
  accept(request: IncomingMessage, response: ServerResponse): void {
    const connection = this.connectionOf(request.socket);
    connection.waiting.push([request, response]);
    this.waitingTotal++;
    if (connection.waiting.length >= this.maxWaiting && !connection.paused) {
      connection.paused = true;
      connection.socket.pause();
    }
    if (!connection.answering) void this.answerInTurn(connection);
  }

  private connectionOf(socket: Socket): Connection {
    let connection = this.connections.get(socket);
    if (connection) return connection;
    const created: Connection = { socket, waiting: [], answering: false, paused: false };
    connection = created;
    this.connections.set(socket, created);
    socket.on('resume', () => {
      if (created.paused) socket.pause();
    });
    socket.once('close', () => {
      this.waitingTotal -= created.waiting.length;
      created.waiting.length = 0;
    });
    return created;
  }

  private async answerInTurn(connection: Connection): Promise<void> {
    connection.answering = true;
    try {
      for (let next = connection.waiting.shift(); next; next = connection.waiting.shift()) {
        this.waitingTotal--;
        const [request, response] = next;
        await this.answer(request, response);
        await handedOver(response);
        await drained(connection.socket);
        if (connection.paused && connection.waiting.length < this.maxWaiting) {
          connection.paused = false;
          connection.socket.resume();
        }
      }
    } finally {
      connection.answering = false;
    }
  }
}

/** Resolves once the response is handed to the socket in full, or the connection is gone. */
function handedOver(response: ServerResponse): Promise<void> {
  if (response.writableFinished || response.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      response.off('finish', done);
      response.off('close', done);
      resolve();
    };
    response.on('finish', done);
    response.on('close', done);
  });
}

/** Resolves once the socket has room again (its buffer below the high-water mark), or is gone. */
function drained(socket: Socket): Promise<void> {
  if (!socket.writableNeedDrain || socket.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      socket.off('drain', done);
      socket.off('close', done);
      resolve();
    };
    socket.on('drain', done);
    socket.on('close', done);
  });
}
