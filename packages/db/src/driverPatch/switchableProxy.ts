import net from 'node:net';

/**
 * A TCP proxy in front of a PostgreSQL server that can go away and come back on the same port: `down()` cuts
 * every connection and stops listening (a connect is then refused, as when the server is stopped), `up()`
 * listens again. For driver specs that need refused connects without stopping a real server.
 */
export interface SwitchableProxy {
  readonly port: number;
  down(): Promise<void>;
  up(): Promise<void>;
  close(): Promise<void>;
}

export async function switchableProxy(target: { host: string; port: number }): Promise<SwitchableProxy> {
  const sockets = new Set<net.Socket>();
  let server: net.Server | null = null;
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      const s = net.createServer((client) => {
        const upstream = net.connect(target);
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on('error', () => cut());
          socket.on('close', () => cut());
        }
        client.pipe(upstream);
        upstream.pipe(client);
        function cut() {
          client.destroy();
          upstream.destroy();
          sockets.delete(client);
          sockets.delete(upstream);
        }
      });
      s.once('error', reject);
      s.listen(port, '127.0.0.1', () => {
        server = s;
        resolve((s.address() as net.AddressInfo).port);
      });
    });
  const down = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      sockets.clear();
      if (!server) return resolve();
      server.close(() => resolve());
      server = null;
    });
  const port = await listen(0);
  return {
    port,
    down,
    up: async () => {
      await listen(port);
    },
    close: down,
  };
}
