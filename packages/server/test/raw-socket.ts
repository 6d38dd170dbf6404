import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';

/** A WebSocket opened by hand over TCP, so a test can stop reading at will. */
export interface RawWebSocket {
  socket: Socket;
  /** The HTTP status line and headers of the upgrade answer. */
  response: string;
  /** Bytes received after the upgrade answer (while the socket was read). */
  rest: Buffer;
}

/** Performs the upgrade (with the headers given) and returns once the answer's headers are in. */
export function rawUpgrade(port: number, headers: Record<string, string>): Promise<RawWebSocket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = Buffer.alloc(0);
    socket.on('error', reject);
    socket.on('connect', () => {
      const lines = [
        'GET /ws HTTP/1.1',
        `Host: 127.0.0.1:${port}`,
        'Upgrade: websocket',
        'Connection: Upgrade',
        `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`,
        'Sec-WebSocket-Version: 13',
        ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
      ];
      socket.write(`${lines.join('\r\n')}\r\n\r\n`);
    });
    const onData = (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const end = received.indexOf('\r\n\r\n');
      if (end < 0) return;
      socket.off('data', onData);
      resolve({
        socket,
        response: received.subarray(0, end).toString(),
        rest: received.subarray(end + 4),
      });
    };
    socket.on('data', onData);
  });
}

/** A masked text frame, as a client must send it (RFC 6455 §5.3). */
export function clientTextFrame(text: string): Buffer {
  const payload = Buffer.from(text);
  const mask = randomBytes(4);
  const length = payload.length;
  const header =
    length < 126
      ? Buffer.from([0x81, 0x80 | length])
      : length < 65536
        ? Buffer.from([0x81, 0x80 | 126, length >> 8, length & 0xff])
        : Buffer.concat([Buffer.from([0x81, 0x80 | 127]), bigLength(length)]);
  const masked = Buffer.from(payload.map((byte, index) => byte ^ (mask[index % 4] ?? 0)));
  return Buffer.concat([header, mask, masked]);
}

function bigLength(length: number): Buffer {
  const buffer = Buffer.alloc(8);
  buffer.writeBigUInt64BE(BigInt(length));
  return buffer;
}

/** The server frames in `data` (unmasked), with the close code of a close frame. */
export function serverFrames(
  data: Buffer,
): Array<{ opcode: number; payload: Buffer; closeCode?: number }> {
  const frames: Array<{ opcode: number; payload: Buffer; closeCode?: number }> = [];
  let offset = 0;
  while (offset + 2 <= data.length) {
    const opcode = (data[offset] ?? 0) & 0x0f;
    let length = (data[offset + 1] ?? 0) & 0x7f;
    let start = offset + 2;
    if (length === 126) {
      length = data.readUInt16BE(start);
      start += 2;
    } else if (length === 127) {
      length = Number(data.readBigUInt64BE(start));
      start += 8;
    }
    if (start + length > data.length) break;
    const payload = data.subarray(start, start + length);
    frames.push({
      opcode,
      payload,
      ...(opcode === 0x8 && length >= 2 ? { closeCode: payload.readUInt16BE(0) } : {}),
    });
    offset = start + length;
  }
  return frames;
}

/** WebSocket opcodes (RFC 6455 §5.2). */
export const OPCODES = {
  continuation: 0x0,
  text: 0x1,
  binary: 0x2,
  close: 0x8,
  ping: 0x9,
  pong: 0xa,
};

/**
 * Any frame, right or wrong: `fin` (default true), `rsv` bits (0–7), `masked` (default true; a
 * client must mask), any opcode (3–7 and 0xB–0xF are reserved).
 */
export function clientFrame(
  opcode: number,
  payload: Buffer,
  options: { fin?: boolean; rsv?: number; masked?: boolean } = {},
): Buffer {
  const first = ((options.fin ?? true) ? 0x80 : 0) | ((options.rsv ?? 0) << 4) | (opcode & 0x0f);
  const maskBit = (options.masked ?? true) ? 0x80 : 0;
  const length = payload.length;
  const header =
    length < 126
      ? Buffer.from([first, maskBit | length])
      : length < 65536
        ? Buffer.from([first, maskBit | 126, length >> 8, length & 0xff])
        : Buffer.concat([Buffer.from([first, maskBit | 127]), bigLength(length)]);
  if (!maskBit) return Buffer.concat([header, payload]);
  const mask = randomBytes(4);
  const masked = Buffer.from(payload.map((byte, index) => byte ^ (mask[index % 4] ?? 0)));
  return Buffer.concat([header, mask, masked]);
}

/** A raw connection that parses what the server sends: JSON messages and the close code. */
export interface RawClient {
  readonly raw: RawWebSocket;
  /** The server's text messages, parsed, in order. */
  readonly messages: Array<{ type?: string; data?: unknown }>;
  /** The close frame's code once one came (`null`: the socket ended without one). */
  readonly closeCode: number | null | undefined;
  readonly ended: boolean;
  write(frame: Buffer): void;
  /** Resolves when a message matches (true) or the connection ends first (false). */
  until(
    predicate: (message: { type?: string; data?: unknown }) => boolean,
    from?: number,
    timeoutMs?: number,
  ): Promise<boolean>;
  destroy(): void;
}

/** Upgrades (with the token in the header unless told otherwise) and collects frames. */
export async function rawClient(port: number, headers: Record<string, string>): Promise<RawClient> {
  const raw = await rawUpgrade(port, headers);
  const messages: Array<{ type?: string; data?: unknown }> = [];
  let buffered = raw.rest;
  let closeCode: number | null | undefined;
  let ended = false;
  const waiters = new Set<() => void>();
  const wake = () => {
    for (const waiter of [...waiters]) waiter();
  };
  const take = () => {
    let offset = 0;
    for (const frame of serverFrames(buffered)) {
      offset += frameLength(frame.payload.length);
      if (frame.opcode === OPCODES.text) messages.push(JSON.parse(frame.payload.toString('utf8')));
      else if (frame.opcode === OPCODES.close) closeCode = frame.closeCode ?? null;
    }
    buffered = buffered.subarray(offset);
    wake();
  };
  raw.socket.on('data', (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk]);
    take();
  });
  const end = () => {
    ended = true;
    if (closeCode === undefined) closeCode = null;
    wake();
  };
  raw.socket.on('close', end);
  raw.socket.on('error', () => undefined);
  take();
  return {
    raw,
    messages,
    get closeCode() {
      return closeCode;
    },
    get ended() {
      return ended;
    },
    write: (frame) => {
      if (!raw.socket.destroyed && raw.socket.writable) raw.socket.write(frame);
    },
    until(predicate, from = 0, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no matching message within ${timeoutMs} ms`));
        }, timeoutMs);
        const check = () => {
          const found = messages.slice(from).some(predicate);
          if (found || ended || closeCode !== undefined) {
            clearTimeout(timer);
            waiters.delete(check);
            resolve(found);
          }
        };
        waiters.add(check);
        check();
      });
    },
    destroy: () => raw.socket.destroy(),
  };
}

/** The bytes of a server frame (unmasked) with a payload of `length` bytes. */
function frameLength(length: number): number {
  return 2 + (length >= 65536 ? 8 : length >= 126 ? 2 : 0) + length;
}
