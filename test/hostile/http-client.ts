import { request } from 'node:http';
import type { Net } from './net.js';

export interface HttpResponse {
  /** The status code, or 0 when the connection ended without a response. */
  readonly status: number;
  readonly body: Buffer;
}

/** An HTTP request from `localAddress` on a connection of its own. */
export function http(
  port: number,
  path: string,
  localAddress: string,
  options: { method?: string; body?: Buffer | string; headers?: Record<string, string> } = {},
): Promise<HttpResponse> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path, localAddress, method: options.method ?? 'GET', agent: false, headers: options.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
      res.on('error', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
    });
    // A server that cuts the connection gives no status: 0 says so.
    req.on('error', () => resolve({ status: 0, body: Buffer.alloc(0) }));
    req.end(options.body);
  });
}

/** JSON from a GET (null unless the status is 200). */
export async function getJson<T>(port: number, path: string, localAddress: string): Promise<{ status: number; json: T | null }> {
  const response = await http(port, path, localAddress);
  if (response.status !== 200) return { status: response.status, json: null };
  try {
    return { status: 200, json: JSON.parse(response.body.toString('utf8')) as T };
  } catch {
    return { status: 200, json: null };
  }
}

/**
 * Bytes written as they are on a raw TCP connection (for requests an HTTP client refuses to make),
 * and the status of whatever came back before the connection closed (0 for none).
 */
export async function rawHttp(net: Net, port: number, text: string | Buffer, localAddress: string): Promise<HttpResponse> {
  let socket;
  try {
    socket = await net.tcp(port, localAddress);
  } catch {
    return { status: 0, body: Buffer.alloc(0) };
  }
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  socket.end(text);
  await new Promise<void>((resolve) => socket.once('close', () => resolve()));
  const response = Buffer.concat(chunks);
  const status = /^HTTP\/1\.[01] (\d{3})/.exec(response.subarray(0, 64).toString('latin1'))?.[1];
  const split = response.indexOf('\r\n\r\n');
  return { status: status ? Number(status) : 0, body: split === -1 ? Buffer.alloc(0) : response.subarray(split + 4) };
}
