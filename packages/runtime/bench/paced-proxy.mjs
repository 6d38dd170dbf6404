// A loopback proxy in front of a model server that holds each request before forwarding it: how
// the runtime benches give the scripted model a response time.
import { createServer, request } from 'node:http';

/** A loopback proxy in front of the model that holds each request `delayMs` before forwarding. */
export async function pacedProxy(targetUrl, delayMs) {
  const target = new URL(targetUrl);
  const server = createServer((incoming, outgoing) => {
    const body = [];
    incoming.on('data', (chunk) => body.push(chunk));
    incoming.on('end', () => {
      setTimeout(() => {
        const forward = request(
          {
            host: target.hostname,
            port: target.port,
            path: incoming.url,
            method: incoming.method,
            headers: incoming.headers,
          },
          (answer) => {
            outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(outgoing);
          },
        );
        forward.on('error', () => outgoing.destroy());
        outgoing.on('close', () => forward.destroy());
        forward.end(Buffer.concat(body));
      }, delayMs);
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
