// What Cloudflare's edge does in front of the Worker and its static assets, and the local preview does not:
// compress text answers (gzip, flushed as they stream, so streamed HTML still arrives in parts). Without it the
// phone profile would move every script three times over its 1.6 Mbps link, which no real student does.
import type { AddressInfo } from "node:net";
import { createServer, request as forward, type IncomingMessage, type ServerResponse } from "node:http";
import { constants, createGzip } from "node:zlib";

const COMPRESSIBLE = /^(text\/|application\/(javascript|json|xml)|image\/svg)/;

export type Edge = { url: string; stop: () => Promise<void> };

/** Listens on a free loopback port (0: the system picks one, so no other engineer's server is in the way). */
export async function startEdge(origin: string, port = 0): Promise<Edge> {
  const target = new URL(origin);
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const upstream = forward(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, "accept-encoding": "identity" },
      },
      (answer) => {
        const type = String(answer.headers["content-type"] ?? "");
        const gzip = /\bgzip\b/.test(String(req.headers["accept-encoding"] ?? "")) && COMPRESSIBLE.test(type);
        const headers = { ...answer.headers };
        if (gzip) {
          delete headers["content-length"];
          headers["content-encoding"] = "gzip";
          headers.vary = headers.vary ? `${headers.vary}, Accept-Encoding` : "Accept-Encoding";
        }
        res.writeHead(answer.statusCode ?? 502, headers);
        if (!gzip) return void answer.pipe(res);
        answer.pipe(createGzip({ level: 6, flush: constants.Z_SYNC_FLUSH })).pipe(res);
      },
    );
    upstream.on("error", () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", resolve);
  });
  return {
    url: `http://localhost:${(server.address() as AddressInfo).port}`,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
