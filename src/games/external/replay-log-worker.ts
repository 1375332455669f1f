/**
 * The worker thread that imports replay logs for POST /api/replay-log (see ReplayLogImporter).
 * Parsing a 16 MiB log takes seconds; on the main thread that would stall every running match.
 * The answer goes back as the finished JSON bytes, transferred, so the main thread neither parses
 * nor clones a large array of events.
 */
import { parentPort } from 'node:worker_threads';
import { importReplayLog } from './replay-log.js';
import type { ReplayImportReply, ReplayImportRequest } from './replay-log-messages.js';

const port = parentPort!;
const decoder = new TextDecoder();
const encoder = new TextEncoder();

port.on('message', (request: ReplayImportRequest) => {
  let reply: ReplayImportReply;
  try {
    const events = importReplayLog(decoder.decode(request.log));
    // TextEncoder gives a buffer of its own (never a slice of a shared pool), safe to transfer.
    reply = events.ok ? { id: request.id, ok: true, json: encoder.encode(JSON.stringify({ vis: events.value })) } : { id: request.id, ok: false, error: events.error };
  } catch (error) {
    reply = { id: request.id, ok: false, error: error instanceof Error ? error.message : String(error) };
  }
  port.postMessage(reply, reply.ok ? [reply.json.buffer as ArrayBuffer] : []);
});
