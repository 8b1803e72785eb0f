/**
 * A TCP proxy in front of a server (PostgreSQL in the outage tests): the app connects to the
 * proxy, and the test cuts the database away — every open connection reset, new ones refused
 * — and brings it back, as a restart or a network failure would.
 */
import { createServer, connect, type Server, type Socket } from "node:net";

export class TcpProxy {
  readonly #sockets = new Set<Socket>();
  #server: Server | null = null;
  /** Connections accepted so far (a restored proxy keeps counting). */
  accepted = 0;

  private constructor(
    private readonly target: { host: string; port: number },
    public port: number,
  ) {}

  /** A proxy on a free loopback port forwarding to `target`. */
  static async start(target: { host: string; port: number }): Promise<TcpProxy> {
    const proxy = new TcpProxy(target, 0);
    await proxy.#listen();
    return proxy;
  }

  /** `url` (postgres://user@host:port/db) with its host and port replaced by the proxy's. */
  rewrite(url: string): string {
    const u = new URL(url);
    u.hostname = "127.0.0.1";
    u.port = String(this.port);
    return u.toString();
  }

  get listening() {
    return !!this.#server;
  }

  async #listen() {
    const server = createServer((client) => {
      this.accepted++;
      const upstream = connect(this.target.port, this.target.host);
      this.#sockets.add(client);
      this.#sockets.add(upstream);
      const drop = () => {
        client.destroy();
        upstream.destroy();
        this.#sockets.delete(client);
        this.#sockets.delete(upstream);
      };
      client.on("error", drop).on("close", drop);
      upstream.on("error", drop).on("close", drop);
      client.pipe(upstream);
      upstream.pipe(client);
    });
    await new Promise<void>((ok, fail) => {
      server.once("error", fail);
      server.listen(this.port, "127.0.0.1", () => ok());
    });
    this.port = (server.address() as { port: number }).port;
    this.#server = server;
  }

  /** Resets every open connection and stops listening: new connections are refused (ECONNREFUSED). */
  async cut() {
    const server = this.#server;
    this.#server = null;
    const closed = server ? new Promise<void>((ok) => server.close(() => ok())) : Promise.resolve();
    for (const s of this.#sockets) s.resetAndDestroy();
    this.#sockets.clear();
    await closed;
  }

  /** Listens again on the same port after `cut`. */
  async restore() {
    if (!this.#server) await this.#listen();
  }

  async close() {
    await this.cut();
  }
}
