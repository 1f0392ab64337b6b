// Listening on a port, for every server the toolkit starts (sandbox, receiver): a port in use is said as the caller
// words it (PORT_IN_USE), any other refusal in one line (USAGE), never as an internal error.
import type http from 'node:http';
import { ContractsError } from '../core/errors.js';

export function listen(server: http.Server, host: string, port: number, inUse: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'EADDRINUSE'
          ? new ContractsError('PORT_IN_USE', inUse)
          : new ContractsError('USAGE', `cannot listen on ${host}:${port}: ${error.code ?? error.message}`),
      );
    });
    server.listen(port, host, () => resolve());
  });
}
