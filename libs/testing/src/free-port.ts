import net from 'node:net';

/** A TCP port on 127.0.0.1 that was free a moment ago: the OS picks it for a server opened and closed again at once. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
