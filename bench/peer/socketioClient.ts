// bench:fanout's clients of the socket.io peer (socketioServer.ts): socket.io-client, one
// connection each (forceNew: no multiplexing over a shared one), websocket transport only, a
// `subscribe` per symbol answered with its snapshot.
//
// The one thing changed from the stock client is how an `update` event is decoded: socket.io's
// parser JSON-parses every packet, and at this load (one packet per symbol update, hundreds of
// thousands a second in one process) that would make the load generator, not the server, the
// bottleneck and the latencies its own. So the client's parser (socket.io's documented
// extension point) hands an update's packet on as text, read as Visores's frames are read (the
// digits after each `"date":`); every other packet is socket.io's parser's to decode. The
// server's parser is the stock one: what goes over the wire is what any socket.io client gets.
import { io, type Socket } from 'socket.io-client';
import { Decoder, Encoder, PacketType, protocol } from 'socket.io-parser';
import { datesInText, updatesWellFormed, type FanoutClient } from '../fanout/measure.js';

/** An update event's packet as socket.io writes it (engine.io's message type already taken off). */
const UPDATE_PACKET = `${PacketType.EVENT}["update",`;

/** socket.io-parser's decoder, except that an update's packet stays text for the bench to read. */
class UpdateAsText extends Decoder {
  // socket.io-parser types its packets as `any`: a string, or a Buffer of a binary packet.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  override add(packet: any): void {
    if (typeof packet === 'string' && packet.startsWith(UPDATE_PACKET))
      this.emitReserved('decoded', { type: PacketType.EVENT, nsp: '/', data: ['update', packet] });
    else super.add(packet);
  }
}

/** The events as this client sees them: an update arrives as its packet's text. */
interface ServerEvents {
  update(packet: string): void;
}
interface ClientEvents {
  subscribe(symbol: string, answer: (snapshot: Record<string, { md?: { LA?: { date?: unknown } | null } }>) => void): void;
}

export function socketioClient(baseUrl: string): FanoutClient<string> {
  return {
    open(symbols, hooks) {
      return new Promise((resolve, reject) => {
        const socket: Socket<ServerEvents, ClientEvents> = io(baseUrl, {
          transports: ['websocket'],
          forceNew: true,
          // A connection lost is counted (hooks.closed), not silently replaced by one that watches nothing.
          reconnection: false,
          timeout: 60_000,
          parser: { Encoder, Decoder: UpdateAsText, protocol },
        });
        socket.once('connect_error', reject);
        socket.once('connect', () => {
          for (const symbol of symbols) {
            socket.emit('subscribe', symbol, (snapshot) => {
              for (const [key, entry] of Object.entries(snapshot)) {
                const lastTrade = entry.md?.LA?.date;
                hooks.subscribed(key, typeof lastTrade === 'number' ? lastTrade : undefined);
              }
            });
          }
          resolve({ close: () => socket.disconnect() });
        });
        socket.on('update', (packet) => hooks.frame(packet));
        socket.on('disconnect', () => hooks.closed());
      });
    },
    dates: datesInText,
    wellFormed(packet) {
      const [name, updates] = JSON.parse(packet.slice(1)) as [unknown, unknown];
      return name === 'update' && updatesWellFormed(packet, updates);
    },
  };
}
