// What Cloudflare's edge does in front of the Worker and its static assets, and the local preview does not:
// compress text answers, flushed as they stream, so streamed HTML still arrives in parts. Without it the phone profile
// would move every script three times over its 1.6 Mbps link, which no real student does.
// The encoding is the one Cloudflare picks (issue 47): Brotli when the request accepts `br` (every browser the phone
// profile stands for does), gzip otherwise. This makes the rig faithful to production, it does not flatter it: the
// Brotli quality is Cloudflare's default for compressing on the fly, 4 (blog.cloudflare.com/this-is-brotli-from-origin,
// "Brotli compression to 11"), which on this app's bundle is about as small as gzip at level 6 (the framework's file:
// 108.6 KB against 108.0 KB; the dashboard's HTML: 21.6 KB against 22.2 KB), not the 11 of a precompressed file.
// EDGE_ENCODING=gzip forces gzip (the rig before issue 47's last stop), to compare.
import type { AddressInfo } from "node:net";
import { createServer, request as forward, type IncomingMessage, type ServerResponse } from "node:http";
import { constants, createBrotliCompress, createGzip } from "node:zlib";
import type { Transform } from "node:stream";

const COMPRESSIBLE = /^(text\/|application\/(javascript|json|xml)|image\/svg)/;
/** Cloudflare's default Brotli quality on the fly (see the head of this file). */
export const EDGE_BROTLI_QUALITY = 4;

export type Edge = { url: string; stop: () => Promise<void> };

/** The encoding the edge answers with: Brotli if accepted, else gzip if accepted, else none. */
export function edgeEncoding(acceptEncoding: string, only = process.env.EDGE_ENCODING): "br" | "gzip" | null {
  const accepted = new Set(
    acceptEncoding
      .split(",")
      .map((part) => part.trim().split(/\s*;\s*q=/))
      .filter(([, q]) => q === undefined || Number(q) > 0)
      .map(([name]) => name!.toLowerCase()),
  );
  if (only !== "gzip" && accepted.has("br")) return "br";
  return accepted.has("gzip") ? "gzip" : null;
}

/** A compressor that flushes every chunk it is given (a streamed part of a page leaves as soon as it comes). */
function compressor(encoding: "br" | "gzip"): Transform {
  if (encoding === "gzip") return createGzip({ level: 6, flush: constants.Z_SYNC_FLUSH });
  return createBrotliCompress({
    flush: constants.BROTLI_OPERATION_FLUSH,
    params: { [constants.BROTLI_PARAM_QUALITY]: EDGE_BROTLI_QUALITY },
  });
}

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
        const encoding = COMPRESSIBLE.test(type) ? edgeEncoding(String(req.headers["accept-encoding"] ?? "")) : null;
        const headers = { ...answer.headers };
        if (encoding) {
          delete headers["content-length"];
          headers["content-encoding"] = encoding;
          headers.vary = headers.vary ? `${headers.vary}, Accept-Encoding` : "Accept-Encoding";
        }
        res.writeHead(answer.statusCode ?? 502, headers);
        if (!encoding) return void answer.pipe(res);
        answer.pipe(compressor(encoding)).pipe(res);
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
