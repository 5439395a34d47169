import { createServer, type Server, Socket } from 'node:net';

/**
 * A TCP proxy in front of PostgreSQL, so a test can take the database away from the app
 * (every connection cut, new ones refused) without restarting the server other engineers and
 * test files share: from the app's side this is what a PostgreSQL restart looks like.
 */
export type TcpProxy = {
  readonly port: number;
  /** Cuts every open connection and refuses new ones until `restore`. */
  cut(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
};

export async function startTcpProxy(target: { host: string; port: number }, port = 0): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let server: Server | null = null;
  let boundPort = port;

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const s = createServer((client) => {
        const upstream = new Socket();
        sockets.add(client);
        sockets.add(upstream);
        const drop = () => {
          client.destroy();
          upstream.destroy();
          sockets.delete(client);
          sockets.delete(upstream);
        };
        client.on('error', drop);
        upstream.on('error', drop);
        client.on('close', drop);
        upstream.on('close', drop);
        upstream.connect(target.port, target.host, () => {
          client.pipe(upstream);
          upstream.pipe(client);
        });
      });
      s.once('error', reject);
      s.listen(boundPort, '127.0.0.1', () => {
        const address = s.address();
        if (address && typeof address === 'object') boundPort = address.port;
        server = s;
        resolve();
      });
    });

  const stop = () =>
    new Promise<void>((resolve) => {
      const s = server;
      server = null;
      for (const socket of sockets) socket.destroy();
      sockets.clear();
      if (!s) return resolve();
      s.close(() => resolve());
    });

  await listen();
  return {
    get port() {
      return boundPort;
    },
    cut: stop,
    restore: listen,
    close: stop,
  };
}
