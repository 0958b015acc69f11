import net from 'node:net';

/** Bytes one read takes at most (node's own read size). */
const READ_SIZE = 65_536;
/** A held message buffer grown past this for one big message is let go once it is handed on. */
const HELD_KEPT = 1 << 20;
/** ReadyForQuery: the first one ends a connection's start-up (authentication). */
const READY_FOR_QUERY = 0x5a;

/**
 * The socket of a PostgreSQL connection (pg's `stream` option): it reads into one buffer of its
 * own instead of a new 64 KB buffer per read, and hands the protocol parser whole messages only.
 *
 * A page of listings is 40 KB of rows. Read the usual way, every read was a new buffer outside the
 * JavaScript heap, and a message cut by a read's end was merged into another new one by the
 * parser: without them the service's CPU per listings page fell from 0.52 to 0.33 ms, trending's
 * from 0.53 to 0.39, search's from 0.76 to 0.58 (interleaved A/B at a million names, 3 rounds;
 * small answers the same; docs/ARCHITECTURE.md).
 *
 * The parser copies what it keeps of a message (its fields as strings) while it handles the
 * 'data' event, so the read buffer can be read into again afterwards. Until the connection is
 * ready, chunks are handed on as copies: an MD5 salt is kept as bytes across an await. With TLS
 * (`ssl`), pg's own socket: the server's answer to the TLS request is one byte, not a message,
 * and TLS reads through the socket's handle.
 */
export function pgSocket(config?: { ssl?: unknown }): net.Socket {
  if (config?.ssl) return new net.Socket();
  const read = Buffer.allocUnsafe(READ_SIZE);
  /** the start of the message the last read ended in (`heldLength` bytes), with the reads that follow */
  let held: Buffer = Buffer.allocUnsafe(0);
  let heldLength = 0;
  let ready = false;
  const onRead = (n: number): boolean => {
    let data: Buffer = read.subarray(0, n);
    if (heldLength > 0) {
      if (heldLength + n > held.length) held = grown(held, heldLength, heldLength + n);
      read.copy(held, heldLength, 0, n);
      heldLength += n;
      data = held.subarray(0, heldLength);
    }
    const { end, readyAt } = wholeMessages(data, ready);
    if (end > 0) {
      const whole = data.subarray(0, end);
      socket.emit('data', ready ? whole : Buffer.from(whole));
      ready ||= readyAt;
    }
    const rest = data.length - end;
    if (rest > 0) {
      if (data.buffer === held.buffer) held.copy(held, 0, end, data.length);
      else {
        if (rest > held.length) held = Buffer.allocUnsafe(Math.max(rest, 4096));
        read.copy(held, 0, end, n);
      }
    } else if (held.length > HELD_KEPT) {
      held = Buffer.allocUnsafe(0);
    }
    heldLength = rest;
    return true;
  };
  // node's types leave out that the constructor takes `onread` (net.md, new net.Socket)
  const socket = new net.Socket({ onread: { buffer: read, callback: onRead } } as net.SocketConstructorOpts);
  return socket;
}

/** A bigger buffer holding the first `used` bytes of `buffer`. */
function grown(buffer: Buffer, used: number, needed: number): Buffer {
  const bigger = Buffer.allocUnsafe(Math.max(2 * buffer.length, needed, 4096));
  buffer.copy(bigger, 0, 0, used);
  return bigger;
}

/**
 * Where the whole messages at the start of `data` end (each is a type byte, then a 32-bit length
 * counting itself and the body), and, until the connection is ready, whether one of them was
 * ReadyForQuery.
 */
export function wholeMessages(data: Buffer, ready = true): { end: number; readyAt: boolean } {
  let at = 0;
  let readyAt = false;
  while (at + 5 <= data.length) {
    const end = at + 1 + data.readUInt32BE(at + 1);
    if (end > data.length) break;
    if (!ready && data[at] === READY_FOR_QUERY) readyAt = true;
    at = end;
  }
  return { end: at, readyAt };
}
