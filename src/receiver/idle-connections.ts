// Caps a server's open connections without letting idle ones lock real requests out: when a new connection would pass
// the cap, the connection idle longest (no request in progress: kept alive after an answer, or open with no complete
// request yet) is closed to make room. Only when every connection is busy is the new one refused. (Node's own
// `server.maxConnections` refuses the newcomer whatever the others are doing: 64 sockets that never send a byte
// would keep every delivery out.)
import type http from 'node:http';
import type { Socket } from 'node:net';

interface ConnectionState {
  /** Requests in progress on it. */
  active: number;
  /** When it last became idle (or connected). */
  idleSince: number;
}

export function capConnections(server: http.Server, max: number): void {
  const connections = new Map<Socket, ConnectionState>();
  server.on('connection', (socket: Socket) => {
    if (connections.size >= max && !closeLongestIdle(connections)) {
      socket.destroy();
      return;
    }
    connections.set(socket, { active: 0, idleSince: performance.now() });
    socket.once('close', () => connections.delete(socket));
  });
  server.on('request', (request: http.IncomingMessage, response: http.ServerResponse) => {
    const state = connections.get(request.socket);
    if (!state) return;
    state.active++;
    response.once('close', () => {
      state.active--;
      if (state.active === 0) state.idleSince = performance.now();
    });
  });
}

function closeLongestIdle(connections: Map<Socket, ConnectionState>): boolean {
  let oldest: [Socket, ConnectionState] | undefined;
  for (const entry of connections)
    if (entry[1].active === 0 && (!oldest || entry[1].idleSince < oldest[1].idleSince)) oldest = entry;
  if (!oldest) return false;
  connections.delete(oldest[0]);
  oldest[0].destroy();
  return true;
}
