/**
 * Socket.IO connections that have not signed in: the engine.io session a client opens before it sends
 * its token (the token travels in the next packet), and one whose token was refused, until socket.io
 * closes it. Each costs the server memory and a ping every 25 s, so there may be only so many per client
 * address and in all; a signed-in socket is no longer one of them.
 */
export class PendingConnections {
  private readonly addressOf = new Map<object, string>();
  private readonly countByAddress = new Map<string, number>();

  constructor(
    private readonly perAddress: number,
    private readonly max: number,
  ) {}

  /** Whether a new connection from `address` may open. */
  mayOpen(address: string): boolean {
    return this.addressOf.size < this.max && (this.countByAddress.get(address) ?? 0) < this.perAddress;
  }

  opened(connection: object, address: string): void {
    this.addressOf.set(connection, address);
    this.countByAddress.set(address, (this.countByAddress.get(address) ?? 0) + 1);
  }

  /** The connection signed in or closed; either way it holds no place any more. */
  settled(connection: object): void {
    const address = this.addressOf.get(connection);
    if (address === undefined) return;
    this.addressOf.delete(connection);
    const left = (this.countByAddress.get(address) ?? 1) - 1;
    if (left > 0) this.countByAddress.set(address, left);
    else this.countByAddress.delete(address);
  }
}
