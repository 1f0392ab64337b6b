import type http from 'node:http';
import type { AddressInfo } from 'node:net';

/** Listens on a free loopback port: the server's URL, and a close that drops its open connections first. */
export async function onLoopback(server: http.Server): Promise<{ url: string; close(): Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
