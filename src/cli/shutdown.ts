// One way for the commands (svc-relay, svc-emulator, `npm start`) to learn that they must stop.

export type StopReason = 'SIGINT' | 'SIGTERM' | 'SIGHUP' | 'npm_exited';

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * Calls `stop` once: on SIGINT, SIGTERM or SIGHUP, or when npm's shell around this process ends.
 * `npx svc-relay` runs the command through `sh -c`, and npm passes a signal it receives to that
 * shell only: on SIGTERM the shell dies without passing it on, leaving this process behind,
 * re-parented. So, when npm started this process, a change of parent counts as the signal (not
 * otherwise: `nohup svc-relay &` must outlive the shell that started it). Later signals are
 * ignored: Ctrl+C reaches npm and this process both, and npm passes its copy on.
 */
export function onShutdown(stop: (reason: StopReason) => void): void {
  let stopping = false;
  const request = (reason: StopReason) => {
    if (stopping) return;
    stopping = true;
    stop(reason);
  };
  for (const signal of SIGNALS) process.on(signal, () => request(signal));
  if (process.env.npm_lifecycle_event === undefined) return;
  const parent = process.ppid;
  const watch = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(watch);
    request('npm_exited');
  }, 200);
  watch.unref();
}
