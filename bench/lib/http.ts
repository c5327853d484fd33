// Sequential request timing over keep-alive connections (one socket per target), so the figure is
// the latency of one request and not of a queue.
import { Agent, request } from 'node:http';

export interface Target {
  url: string;
  headers?: Record<string, string>;
}

const agents = new Map<string, Agent>();
function agentFor(origin: string): Agent {
  let agent = agents.get(origin);
  if (!agent) {
    agent = new Agent({ keepAlive: true, maxSockets: 1 });
    agents.set(origin, agent);
  }
  return agent;
}

/** One GET; resolves with the elapsed milliseconds and the status once the whole body arrived. */
export function timedGet(target: Target): Promise<{ ms: number; status: number; body: string }> {
  const url = new URL(target.url);
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const req = request(url, { agent: agentFor(url.origin), headers: target.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ ms: performance.now() - t0, status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * Times `count` GETs against each target, interleaved (a, b, a, b, ...) so that drift in machine
 * load affects both alike. `url(i)` may vary per request (e.g. distinct ids to defeat a cache).
 */
export async function interleaved(
  targets: { name: string; url: (i: number) => string; headers?: Record<string, string> }[],
  count: number,
): Promise<Record<string, number[]>> {
  const samples: Record<string, number[]> = Object.fromEntries(targets.map((t) => [t.name, []]));
  for (let i = 0; i < count; i++) {
    for (const target of targets) {
      const { ms, status, body } = await timedGet({ url: target.url(i), headers: target.headers });
      if (status !== 200) throw new Error(`${target.name}: GET ${target.url(i)} answered ${status} ${body.slice(0, 200)}`);
      samples[target.name]!.push(ms);
    }
  }
  return samples;
}

export function closeAgents(): void {
  for (const agent of agents.values()) agent.destroy();
  agents.clear();
}
