import net from 'node:net';

/** What a pool sent to and heard from PostgreSQL, summed over its connections. */
export interface WireCounts {
  /**
   * Times a connection sent while it had heard from the server since its previous send: the client was
   * waiting for an answer before it could go on. Statements sent back to back without reading in between
   * (pipelined) share one round trip; a statement sent only after the previous answer costs one more.
   */
  roundTrips: number;
  /**
   * Round trips in sequence: as `roundTrips`, but a send while another connection of the pool still awaits
   * its answer overlaps that one and is not counted again (statements sent in parallel on several
   * connections wait once). What a caller's latency is made of.
   */
  sequentialRoundTrips: number;
  /** Statements executed (extended-protocol Execute or simple Query messages). */
  statements: number;
  /** Statements parsed by the server (Parse messages): a prepared statement reused on a connection has none. */
  parses: number;
  bytesSent: number;
  bytesReceived: number;
}

const ZERO: WireCounts = {
  roundTrips: 0,
  sequentialRoundTrips: 0,
  statements: 0,
  parses: 0,
  bytesSent: 0,
  bytesReceived: 0,
};

/** Frontend message types after the startup (PostgreSQL protocol 3.0), to tell a message stream from startup. */
const FRONTEND_TYPES = new Set(['B', 'C', 'D', 'E', 'F', 'H', 'P', 'Q', 'S', 'X', 'c', 'd', 'f', 'p']);

/**
 * Counts round trips, statements and parses on the wire of a postgres.js pool: pass `socket` to `connect`
 * (`ConnectOptions.wire`). For benches and tests: it measures, it does not change what is sent. Attribute
 * the counts to one command by running commands one at a time and reading `since(before)`.
 */
export class WireCounter {
  private readonly counts: WireCounts = { ...ZERO };
  /** When set, each send is described to it: a new round trip or not, and the statements' text. */
  trace: ((line: string) => void) | null = null;
  private readonly names = new Map<string, string>();
  /** Connections that sent and have not heard back yet. */
  private awaiting = 0;

  /** A snapshot of the totals so far. */
  snapshot(): WireCounts {
    return { ...this.counts };
  }

  /** The counts since `before` (a snapshot). */
  since(before: WireCounts): WireCounts {
    const now = this.counts;
    return {
      roundTrips: now.roundTrips - before.roundTrips,
      sequentialRoundTrips: now.sequentialRoundTrips - before.sequentialRoundTrips,
      statements: now.statements - before.statements,
      parses: now.parses - before.parses,
      bytesSent: now.bytesSent - before.bytesSent,
      bytesReceived: now.bytesReceived - before.bytesReceived,
    };
  }

  /**
   * postgres.js's `socket` option: a TCP (or Unix) socket to the server whose writes and reads are counted.
   * postgres.js writes to it at once; Node keeps those writes until the connection is made.
   */
  readonly socket = (options: { host: string[]; port: number[]; path?: string | false }): net.Socket => {
    const socket = options.path
      ? net.connect(options.path)
      : net.connect(options.port[0] ?? 5432, options.host[0] ?? '127.0.0.1');
    let heard = true;
    const counts = this.counts;
    const settle = () => {
      if (!heard) this.awaiting -= 1;
      heard = true;
    };
    socket.on('data', (chunk: Buffer) => {
      settle();
      counts.bytesReceived += chunk.length;
    });
    socket.on('close', settle);
    const write = socket.write.bind(socket) as (...args: unknown[]) => boolean;
    socket.write = ((chunk: unknown, ...rest: unknown[]) => {
      if (Buffer.isBuffer(chunk)) {
        counts.bytesSent += chunk.length;
        if (heard) {
          counts.roundTrips += 1;
          if (this.awaiting === 0) counts.sequentialRoundTrips += 1;
          this.awaiting += 1;
        }
        const described = this.walk(chunk, this.trace !== null);
        this.trace?.(`${heard ? 'round trip' : 'pipelined '}: ${described}`);
        heard = false;
      }
      return write(chunk, ...rest);
    }) as typeof socket.write;
    return socket;
  };

  /**
   * Walks the frontend messages of one send (postgres.js writes whole messages), counts them, remembers each
   * named statement's text and, when asked, describes the send: parses with their text, binds by their text.
   */
  private walk(chunk: Buffer, describe: boolean): string {
    const counts = this.counts;
    const parts: string[] = [];
    let at = 0;
    while (at + 5 <= chunk.length) {
      const type = String.fromCharCode(chunk[at]!);
      if (!FRONTEND_TYPES.has(type)) return 'startup'; // no type byte: the startup message, an SSL request
      const end = at + 1 + chunk.readInt32BE(at + 1);
      const body = chunk.subarray(at + 5, end);
      if (type === 'E') counts.statements += 1;
      else if (type === 'Q') {
        counts.statements += 1;
        if (describe) parts.push(`query ${oneLine(body.toString()).slice(0, 100)}`);
      } else if (type === 'P') {
        counts.parses += 1;
        const nameEnd = body.indexOf(0);
        const name = body.subarray(0, nameEnd).toString();
        const text = oneLine(body.subarray(nameEnd + 1, body.indexOf(0, nameEnd + 1)).toString());
        if (name) this.names.set(name, text);
        if (describe) parts.push(`parse ${text.slice(0, 100)}`);
      } else if (type === 'B' && describe) {
        const portalEnd = body.indexOf(0);
        const name = body.subarray(portalEnd + 1, body.indexOf(0, portalEnd + 1)).toString();
        parts.push(`bind ${name ? (this.names.get(name) ?? name).slice(0, 100) : '(unnamed)'}`);
      }
      at = end;
    }
    return parts.join(' | ');
  }
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
