import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import tls from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertEgressAllowed, EgressError, egressRequest, type LookupFn } from '../src/lib/egress.ts';

// No database: the guard is exercised against real loopback servers only. The address rules
// themselves (pure) are unit-tested in egress-ranges.test.ts.

const LOOPBACK = ['127.0.0.1/32'];

/** The rejection an egress call ended with (fails the test when it resolved). */
async function egressFailure(p: Promise<unknown>): Promise<EgressError> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(EgressError);
    return err as EgressError;
  }
  throw new Error('expected the egress call to be refused');
}

const fixedLookup =
  (...addresses: string[]): LookupFn =>
  async () =>
    addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }) as const);

const lookupMustNotRun: LookupFn = async (host) => {
  throw new Error(`lookup called for ${host}`);
};

interface TestServer {
  server: Server;
  port: number;
  hits: IncomingMessage[];
  /** Requests whose socket has closed (the client hung up or finished). */
  closed: number;
  close(): Promise<void>;
}

async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<TestServer> {
  const hits: IncomingMessage[] = [];
  const state = { closed: 0 };
  const server = createServer((req, res) => {
    hits.push(req);
    res.on('close', () => {
      state.closed++;
    });
    handler(req, res);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    server,
    port: (server.address() as AddressInfo).port,
    hits,
    get closed() {
      return state.closed;
    },
    close: async () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

const readBody = async (req: IncomingMessage) => {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
};

describe('assertEgressAllowed', () => {
  it.each([
    'http://127.0.0.1/',
    'http://0.0.0.0/',
    'http://[::1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://169.254.169.254/latest/meta-data/',
    'http://[fd00:ec2::254]/',
    'http://10.0.0.5/',
    'http://172.16.3.4/',
    'http://192.168.0.10:8080/',
    'http://100.64.12.1/',
    'http://2130706433/',
    'http://0177.0.0.1/',
    'http://0x7f.1/',
    'https://0/',
  ])('refuses the literal address in %s without a DNS lookup', async (url) => {
    const err = await egressFailure(assertEgressAllowed(url, { allowCidrs: [], lookup: lookupMustNotRun }));
    expect(err.reason).toBe('blocked_address');
  });

  it('explains the refusal in words', async () => {
    const err = await egressFailure(assertEgressAllowed('http://169.254.169.254/', { allowCidrs: [] }));
    expect(err.message).toBe(
      '169.254.169.254 is a cloud metadata address; outbound calls to private, loopback, link-local and metadata addresses are refused' +
        ' (to allow a local receiver, set EGRESS_ALLOW_CIDRS, e.g. EGRESS_ALLOW_CIDRS=169.254.169.254/32)',
    );
    const ll = await egressFailure(assertEgressAllowed('http://169.254.10.1/', { allowCidrs: [] }));
    expect(ll.message).toMatch(/^169\.254\.10\.1 is a link-local address; outbound calls/);
  });

  it('refuses localhost through the real resolver', async () => {
    const err = await egressFailure(assertEgressAllowed('http://localhost:9/', { allowCidrs: [] }));
    expect(err.reason).toBe('blocked_address');
    expect(err.message).toMatch(/^localhost resolves to (127\.0\.0\.1|::1), a loopback address/);
    expect(err.message).toMatch(
      /set EGRESS_ALLOW_CIDRS, e\.g\. EGRESS_ALLOW_CIDRS=(127\.0\.0\.1\/32|::1\/128)\)$/,
    );
  });

  it('refuses a hostname that resolves to a private address', async () => {
    const err = await egressFailure(
      assertEgressAllowed('https://hooks.example.com/x', { allowCidrs: [], lookup: fixedLookup('10.0.0.7') }),
    );
    expect(err.reason).toBe('blocked_address');
    expect(err.message).toMatch(/^hooks\.example\.com resolves to 10\.0\.0\.7, a private address/);
  });

  it('refuses a hostname when any one of its addresses is private', async () => {
    const err = await egressFailure(
      assertEgressAllowed('https://hooks.example.com/', {
        allowCidrs: [],
        lookup: fixedLookup('93.184.216.34', '2606:2800:220:1::1', '192.168.1.1'),
      }),
    );
    expect(err.reason).toBe('blocked_address');
  });

  it('accepts a hostname whose addresses are all public', async () => {
    const url = await assertEgressAllowed('https://hooks.example.com/in?x=1', {
      allowCidrs: [],
      lookup: fixedLookup('93.184.216.34', '2606:2800:220:1::1'),
    });
    expect(url.href).toBe('https://hooks.example.com/in?x=1');
  });

  it.each([
    'file:///etc/passwd',
    'gopher://127.0.0.1:6379/_INFO',
    'ftp://example.com/',
    'ws://example.com/',
    'javascript:alert(1)',
  ])('refuses the non-http scheme of %s', async (url) => {
    const err = await egressFailure(assertEgressAllowed(url, { allowCidrs: [], lookup: lookupMustNotRun }));
    expect(err.reason).toBe('scheme');
  });

  it.each([
    'not a url',
    '/relative/path',
    'http://',
    'http://exa mple.com/',
  ])('refuses the invalid URL %j', async (url) => {
    const err = await egressFailure(assertEgressAllowed(url, { allowCidrs: [], lookup: lookupMustNotRun }));
    expect(err.reason).toBe('invalid_url');
  });

  it('reports a name that does not resolve as a dns failure', async () => {
    const err = await egressFailure(
      assertEgressAllowed('https://nowhere.example/', {
        allowCidrs: [],
        lookup: async () => {
          throw Object.assign(new Error('getaddrinfo ENOTFOUND nowhere.example'), { code: 'ENOTFOUND' });
        },
      }),
    );
    expect(err.reason).toBe('dns');
    expect(err.message).toContain('ENOTFOUND');
  });

  it('blocks 127.0.0.1 without an exemption and allows it with EGRESS_ALLOW_CIDRS', async () => {
    const blocked = await egressFailure(assertEgressAllowed('http://127.0.0.1:8080/', { allowCidrs: [] }));
    expect(blocked.reason).toBe('blocked_address');
    const url = await assertEgressAllowed('http://127.0.0.1:8080/', { allowCidrs: LOOPBACK });
    expect(url.port).toBe('8080');
    const mapped = await assertEgressAllowed('http://[::ffff:127.0.0.1]:8080/', { allowCidrs: LOOPBACK });
    expect(mapped.hostname).toBe('[::ffff:7f00:1]');
  });
});

describe('egressRequest against loopback servers', () => {
  let echo: TestServer;
  beforeAll(async () => {
    echo = await serve(async (req, res) => {
      const body = await readBody(req);
      res.setHeader('content-type', 'application/json');
      res.setHeader('x-multi', ['a', 'b']);
      res.end(
        JSON.stringify({
          method: req.method,
          url: req.url,
          host: req.headers.host,
          auth: req.headers.authorization ?? null,
          sig: req.headers['x-sig'] ?? null,
          body,
        }),
      );
    });
  });
  afterAll(() => echo.close());

  it('refuses a loopback server without an exemption and never connects', async () => {
    const before = echo.hits.length;
    const err = await egressFailure(
      egressRequest(`http://127.0.0.1:${echo.port}/`, { timeoutMs: 2000, allowCidrs: [] }),
    );
    expect(err.reason).toBe('blocked_address');
    expect(echo.hits.length).toBe(before);
  });

  it('sends method, headers and body and returns the response when the address is exempt', async () => {
    const res = await egressRequest(`http://127.0.0.1:${echo.port}/hook?a=1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-sig': 't=1,v1=abc' },
      body: '{"hello":"world"}',
      timeoutMs: 2000,
      maxBodyBytes: 4096,
      allowCidrs: LOOPBACK,
    });
    expect(res.status).toBe(200);
    expect(res.truncated).toBe(false);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.headers['x-multi']).toBe('a, b');
    expect(JSON.parse(res.body.toString())).toEqual({
      method: 'POST',
      url: '/hook?a=1',
      host: `127.0.0.1:${echo.port}`,
      auth: null,
      sig: 't=1,v1=abc',
      body: '{"hello":"world"}',
    });
    expect(res.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('pins the connection to the checked address: a rebinding DNS answer is never asked for', async () => {
    const answers = ['127.0.0.1', '10.0.0.1'];
    let calls = 0;
    const rebinding: LookupFn = async () => {
      const address = answers[Math.min(calls++, answers.length - 1)] as string;
      return [{ address, family: 4 }];
    };
    const res = await egressRequest(`http://rebind.test:${echo.port}/r`, {
      timeoutMs: 2000,
      maxBodyBytes: 4096,
      allowCidrs: LOOPBACK,
      lookup: rebinding,
    });
    expect(calls).toBe(1);
    expect(res.status).toBe(200);
    // The Host header still names the URL's host: only the dialled address is pinned.
    expect(JSON.parse(res.body.toString())).toMatchObject({ url: '/r', host: `rebind.test:${echo.port}` });
  });

  it('falls back to the next checked address when the first refuses the connection', async () => {
    const res = await egressRequest(`http://multi.test:${echo.port}/`, {
      timeoutMs: 2000,
      maxBodyBytes: 4096,
      allowCidrs: ['127.0.0.0/8'],
      lookup: fixedLookup('127.0.0.2', '127.0.0.1'),
    });
    expect(res.status).toBe(200);
  });

  it('turns URL credentials into a Basic Authorization header', async () => {
    const res = await egressRequest(`http://us%40er:p%3Ass@127.0.0.1:${echo.port}/`, {
      timeoutMs: 2000,
      maxBodyBytes: 4096,
      allowCidrs: LOOPBACK,
    });
    const auth = JSON.parse(res.body.toString()).auth as string;
    expect(Buffer.from(auth.replace('Basic ', ''), 'base64').toString()).toBe('us@er:p:ss');
  });

  it('returns a redirect as a response and never follows its Location', async () => {
    const target = await serve((_req, res) => res.end('followed'));
    const redirector = await serve((_req, res) => {
      res.writeHead(302, { location: `http://127.0.0.1:${target.port}/internal` }).end();
    });
    try {
      const res = await egressRequest(`http://127.0.0.1:${redirector.port}/`, {
        timeoutMs: 2000,
        allowCidrs: LOOPBACK,
      });
      expect(res.status).toBe(302);
      expect(res.headers.location).toBe(`http://127.0.0.1:${target.port}/internal`);
      const toMetadata = await serve((_req, res) => {
        res.writeHead(301, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
      });
      const res2 = await egressRequest(`http://127.0.0.1:${toMetadata.port}/`, {
        timeoutMs: 2000,
        allowCidrs: LOOPBACK,
      });
      expect(res2.status).toBe(301);
      await toMetadata.close();
      expect(target.hits.length).toBe(0);
    } finally {
      await target.close();
      await redirector.close();
    }
  });

  it('times out when the response headers never come', async () => {
    const silent = await serve(() => {});
    try {
      const started = Date.now();
      const err = await egressFailure(
        egressRequest(`http://127.0.0.1:${silent.port}/`, { timeoutMs: 300, allowCidrs: LOOPBACK }),
      );
      expect(err.reason).toBe('timeout');
      expect(Date.now() - started).toBeLessThan(2000);
    } finally {
      await silent.close();
    }
  });

  it('times out a slow-loris body at the overall deadline', async () => {
    const timers: NodeJS.Timeout[] = [];
    const loris = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      timers.push(setInterval(() => res.write('.'), 50));
    });
    try {
      const started = Date.now();
      const err = await egressFailure(
        egressRequest(`http://127.0.0.1:${loris.port}/`, {
          timeoutMs: 600,
          maxBodyBytes: 1_000_000,
          allowCidrs: LOOPBACK,
        }),
      );
      expect(err.reason).toBe('timeout');
      const elapsed = Date.now() - started;
      expect(elapsed).toBeGreaterThanOrEqual(550);
      expect(elapsed).toBeLessThan(2500);
    } finally {
      for (const t of timers) clearInterval(t);
      await loris.close();
    }
  });

  it('times out when the DNS lookup itself hangs', async () => {
    const err = await egressFailure(
      egressRequest('http://hang.test/', {
        timeoutMs: 200,
        allowCidrs: [],
        lookup: () => new Promise(() => {}),
      }),
    );
    expect(err.reason).toBe('timeout');
  });

  it('keeps only maxBodyBytes of an endless body, hangs up, and returns at once', async () => {
    const chunk = Buffer.alloc(16 * 1024, 'x');
    let stop = false;
    const firehose = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      const pump = () => {
        while (!stop && res.write(chunk)) {}
        if (!stop && !res.destroyed) res.once('drain', pump);
      };
      pump();
    });
    try {
      const res = await egressRequest(`http://127.0.0.1:${firehose.port}/`, {
        timeoutMs: 5000,
        maxBodyBytes: 1024,
        allowCidrs: LOOPBACK,
      });
      expect(res.status).toBe(200);
      expect(res.truncated).toBe(true);
      expect(res.body.length).toBe(1024);
      expect(res.durationMs).toBeLessThan(2000);
      // The client hung up: the server sees its response closed.
      await expect.poll(() => firehose.closed, { timeout: 2000 }).toBe(1);
    } finally {
      stop = true;
      await firehose.close();
    }
  });

  it('does not mark a body of exactly maxBodyBytes as truncated', async () => {
    const exact = await serve((_req, res) => res.end(Buffer.alloc(1024, 'y')));
    try {
      const res = await egressRequest(`http://127.0.0.1:${exact.port}/`, {
        timeoutMs: 2000,
        allowCidrs: LOOPBACK,
      });
      expect(res.truncated).toBe(false);
      expect(res.body.length).toBe(1024);
    } finally {
      await exact.close();
    }
  });

  it('fails loudly on a malformed allow list instead of calling out', async () => {
    const before = echo.hits.length;
    await expect(
      egressRequest(`http://127.0.0.1:${echo.port}/`, { timeoutMs: 2000, allowCidrs: ['127.0.0.1/99'] }),
    ).rejects.toThrow(/EGRESS_ALLOW_CIDRS/);
    expect(echo.hits.length).toBe(before);
  });

  it('reports a refused connection as a connection error', async () => {
    const gone = await serve(() => {});
    const port = gone.port;
    await gone.close();
    const err = await egressFailure(
      egressRequest(`http://127.0.0.1:${port}/`, { timeoutMs: 2000, allowCidrs: LOOPBACK }),
    );
    expect(err.reason).toBe('connection');
    expect(err.message).toContain('ECONNREFUSED');
  });
});

describe('egressRequest over TLS to a pinned address', () => {
  // A self-signed certificate for egress.test (valid until 2126), trusted only inside this test process.
  const KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQghmyMbnD/c2pfz+/6
KGkQS/v2siHYNqWXm7GgqfmDboyhRANCAAQmKtJAL8boIiA7r54idhY1Pf0up0Mp
+6jRuAq56eOYB+bnTVhKIx4rh9FaMeiPWJo+eSZLWh9YfkL7bWsM0w0g
-----END PRIVATE KEY-----
`;
  const CERT = `-----BEGIN CERTIFICATE-----
MIIBmjCCAUGgAwIBAgIUSRMk531xgS6UgMPxq3bzwF/ThbQwCgYIKoZIzj0EAwIw
FjEUMBIGA1UEAwwLZWdyZXNzLnRlc3QwIBcNMjYxMTIyMTgzOTMyWhgPMjEyNjEw
MjkxODM5MzJaMBYxFDASBgNVBAMMC2VncmVzcy50ZXN0MFkwEwYHKoZIzj0CAQYI
KoZIzj0DAQcDQgAEJirSQC/G6CIgO6+eInYWNT39LqdDKfuo0bgKuenjmAfm501Y
SiMeK4fRWjHoj1iaPnkmS1ofWH5C+21rDNMNIKNrMGkwHQYDVR0OBBYEFIrlGZz1
OwB2lhmpOpr900nf0I5kMB8GA1UdIwQYMBaAFIrlGZz1OwB2lhmpOpr900nf0I5k
MA8GA1UdEwEB/wQFMAMBAf8wFgYDVR0RBA8wDYILZWdyZXNzLnRlc3QwCgYIKoZI
zj0EAwIDRwAwRAIgepV+zRNLVDloHTlSkqPmrWhwMGwCQFF9pD1lEVRKzmcCIH/M
7MLCpljJH6Y/Mi/BhJuGhQKJNGnnkv8P9hcLODVK
-----END CERTIFICATE-----
`;
  const servernames: (string | undefined)[] = [];
  let port = 0;
  let server: ReturnType<typeof createTlsServer>;
  let defaults: string[];

  beforeAll(async () => {
    defaults = tls.getCACertificates('default');
    tls.setDefaultCACertificates([...defaults, CERT]);
    server = createTlsServer({ key: KEY, cert: CERT }, (req, res) => res.end(`hello ${req.headers.host}`));
    server.on('secureConnection', (socket: tls.TLSSocket) => {
      servernames.push((socket as tls.TLSSocket & { servername?: string | false }).servername || undefined);
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => {
    tls.setDefaultCACertificates(defaults);
    server.closeAllConnections();
    server.close();
  });

  it('sends SNI for the hostname and verifies the certificate against it while dialling the checked IP', async () => {
    const res = await egressRequest(`https://egress.test:${port}/`, {
      timeoutMs: 3000,
      allowCidrs: LOOPBACK,
      lookup: fixedLookup('127.0.0.1'),
    });
    expect(res.status).toBe(200);
    expect(res.body.toString()).toBe(`hello egress.test:${port}`);
    expect(servernames.at(-1)).toBe('egress.test');
  });

  it('still rejects a certificate that does not name the host', async () => {
    const err = await egressFailure(
      egressRequest(`https://127.0.0.1:${port}/`, { timeoutMs: 3000, allowCidrs: LOOPBACK }),
    );
    expect(err.reason).toBe('connection');
    expect(err.message).toMatch(/ERR_TLS_CERT_ALTNAME_INVALID|altnames/i);
  });
});
