import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";

export type NginxOptions = {
  /** nginx's `listen` address for HTTPS: "127.0.0.1:4600" in the test, "443" in a deployment. */
  listen: string;
  serverName: string;
  /** The web instances, `host:port`. */
  upstreams: string[];
  certFile: string;
  keyFile: string;
  /** nginx's access log (a path), or none: the web instances log every request themselves. */
  accessLog?: string;
  /** The test adds `X-Upstream-Addr` (which instances nginx tried) to every answer; never in production. */
  exposeUpstream?: boolean;
};

/** The example of docs/deploy.md: the same function, a deployment's values. */
export const DEPLOY_EXAMPLE: NginxOptions = {
  listen: "443",
  serverName: "app.energyops.example",
  upstreams: ["10.0.1.11:3000", "10.0.1.12:3000"],
  certFile: "/etc/nginx/tls/energyops.crt",
  keyFile: "/etc/nginx/tls/energyops.key",
  accessLog: "/var/log/nginx/energyops.access.log",
};

/**
 * The load balancer of the scale suite, and the example of docs/deploy.md (tests/scale/deploy-doc.test.ts
 * keeps the two in step): TLS, each browser kept on one web instance (consistent hashing on the session
 * cookie, else the client's address: while Redis is away an instance's own memory is the idempotency store,
 * so a double click must reach the instance that took the first one), passive health
 * (an instance that fails is left out for `fail_timeout`), and a retry on the next instance when one refuses
 * the connection, fails, times out or answers 502/503 — for idempotent requests only (nginx never resends a
 * POST that reached an instance). `http_502` is not in that list: an instance answers 502 itself when the
 * upstream api fails (ADR 9), and counting those as instance failures would take every instance out at
 * once. No keep-alive pool to the instances: a new connection per request, so an
 * instance that stops listening is seen at once (connection refused) instead of a request racing the close
 * of an idle pooled connection. An instance draining after SIGTERM answers page views 503: nginx passes them
 * on and, after max_fails, leaves the instance out, so its listener closes while nothing is sent to it and no
 * POST is reset in its accept queue (server.ts, docs/deploy.md). `non_idempotent` stays out: it would also
 * resend a POST after a broken connection or a timeout, when it may have been processed.
 */
export function nginxConfig(o: NginxOptions): string {
  const servers = o.upstreams.map((u) => `    server ${u} max_fails=2 fail_timeout=3s;`).join("\n");
  return `worker_processes auto;
events {
  worker_connections 1024;
}
http {
  access_log ${o.accessLog ?? "off"};
  server_tokens off;

  # Compression here, not in the web instances (HTTP_COMPRESSION=off): pages, data and assets, for every client
  # that asks, whatever the proxy in front of nginx (text/x-script: Remix's .data answers; text/html is implied).
  gzip on;
  gzip_comp_level 5;
  gzip_min_length 1024;
  gzip_proxied any;
  gzip_vary on;
  gzip_types text/css text/plain text/csv application/javascript text/javascript application/json text/x-script image/svg+xml;

  # Affinity key: the session cookie's value, or the client's address when there is none (signed out).
  # A map, because nginx variable names cannot hold the cookie name's "-".
  map $http_cookie $energyops_affinity {
    "~(?:^|;\\s*)__Host-session=(?<energyops_sid>[^;]+)" $energyops_sid;
    default $binary_remote_addr;
  }

  upstream energyops_web {
    # Each session stays on one instance while that instance is up (idempotency while Redis is away).
    hash $energyops_affinity consistent;
    # Passive health shared by nginx's workers.
    zone energyops_web 64k;
${servers}
  }

  server {
    # HTTP/2 for browsers (ALPN; HTTP/1.1 clients are unaffected): a page's script files share one connection
    # instead of queueing six at a time, one round trip per six files on a slow link (docs/benchmarks.md).
    listen ${o.listen} ssl http2;
    server_name ${o.serverName};
    ssl_certificate ${o.certFile};
    ssl_certificate_key ${o.keyFile};
    ssl_protocols TLSv1.2 TLSv1.3;
    ssl_session_cache shared:SSL:10m;
    # The web tier refuses bodies over BODY_LIMIT_BYTES (64 KiB) itself; this is only a backstop.
    client_max_body_size 1m;

    location / {
      proxy_pass http://energyops_web;
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_connect_timeout 2s;
      proxy_read_timeout 30s;
      proxy_next_upstream error timeout http_503;
      proxy_next_upstream_tries 2;
      proxy_next_upstream_timeout 10s;${o.exposeUpstream ? "\n      add_header X-Upstream-Addr $upstream_addr always;" : ""}
    }
  }
}
`;
}

/** Whether something accepts connections on 127.0.0.1:`port` (nginx, redis-server, a web instance). */
export const portOpen = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = net.connect(port, "127.0.0.1", () => {
      s.end();
      resolve(true);
    });
    s.on("error", () => resolve(false));
  });

export function nginxBinary(): string | null {
  for (const p of ["/usr/sbin/nginx", "/usr/bin/nginx"]) if (fs.existsSync(p)) return p;
  const which = spawnSync("sh", ["-c", "command -v nginx"], { encoding: "utf8" });
  return which.status === 0 ? which.stdout.trim() : null;
}

/** A self-signed certificate for localhost/127.0.0.1, made with openssl in `dir`. */
export function makeCertificate(dir: string) {
  const certFile = path.join(dir, "cert.pem");
  const keyFile = path.join(dir, "key.pem");
  const r = spawnSync(
    "openssl",
    [
      ...["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1"],
      ...["-keyout", keyFile, "-out", certFile, "-subj", "/CN=localhost"],
      ...["-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"],
    ],
    { encoding: "utf8" },
  );
  if (r.status !== 0) throw new Error(`openssl failed: ${r.stderr}`);
  return { certFile, keyFile, ca: fs.readFileSync(certFile) };
}

/** nginx in the foreground with the generated config in `dir`; `stop` ends it gracefully (SIGQUIT). */
export function startNginx(dir: string, config: string) {
  const bin = nginxBinary();
  if (!bin) throw new Error("nginx is not installed");
  const conf = path.join(dir, "nginx.conf");
  fs.writeFileSync(
    conf,
    `daemon off;\npid ${path.join(dir, "nginx.pid")};\nerror_log stderr warn;\n${config}`,
  );
  const logs: string[] = [];
  const check = spawnSync(bin, ["-t", "-p", dir, "-e", "stderr", "-c", conf], { encoding: "utf8" });
  if (check.status !== 0) throw new Error(`nginx config refused: ${check.stderr}`);
  const child: ChildProcess = spawn(bin, ["-p", dir, "-e", "stderr", "-c", conf], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  child.stderr!.on("data", (d) => logs.push(String(d)));
  return {
    child,
    logs,
    /** `nginx -s reload`: the master re-reads the config, starts new workers, old ones finish and exit. */
    reload() {
      const r = spawnSync(bin, ["-p", dir, "-e", "stderr", "-c", conf, "-s", "reload"], { encoding: "utf8" });
      if (r.status !== 0) throw new Error(`nginx -s reload failed: ${r.stderr}`);
    },
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGQUIT");
      }),
  };
}
