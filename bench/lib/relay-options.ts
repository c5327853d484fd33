// Relay options for load: rate limits raised far above what the benchmarks send, so that the
// figures show the relay's work and not its protection against abuse.
export const benchRelayOptions: Record<string, unknown> = {
  rateLimits: {
    create: { limit: 1_000_000_000, windowMs: 60_000 },
    read: { limit: 1_000_000_000, windowMs: 60_000 },
    public: { limit: 1_000_000_000, windowMs: 60_000 },
  },
  // The readiness benchmark opens its 1,000 event streams as one user.
  maxStreamsPerUser: 1_000_000,
  maxUploadBytes: 4 * 2 ** 30,
};

export const relayHeaders = { 'X-Svc-Request': '1' };
