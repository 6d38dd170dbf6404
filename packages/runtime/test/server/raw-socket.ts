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
