// One way for the commands (svc-relay, svc-emulator, `npm start`) to learn that they must stop.

export type StopReason = 'SIGINT' | 'SIGTERM' | 'SIGHUP' | 'npm_exited';

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * Calls `stop` once, on SIGINT, SIGTERM or SIGHUP, or when npm stopped the shell it ran this
 * process in. `npm start` and `npx svc-relay` run the command through `sh -c`; a signal sent to
 * npm (as a process manager or container runtime does) reaches only that shell, which dies
 * without passing it on and leaves this process behind, re-parented. So, when started by npm,
 * a change of parent counts as the signal. (Not otherwise: `nohup svc-relay &` must outlive
 * the shell that started it.) Later signals are ignored: Ctrl+C reaches npm and this process
 * both, and npm passes its copy on, so one key press may arrive twice.
 */
export function onShutdown(stop: (reason: StopReason) => void, env = process.env, pollMs = 200): void {
  let stopping = false;
  const request = (reason: StopReason) => {
    if (stopping) return;
    stopping = true;
    stop(reason);
  };
  for (const signal of SIGNALS) process.on(signal, () => request(signal));
  if (env.npm_lifecycle_event === undefined) return;
  const parent = process.ppid;
  const watch = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(watch);
    request('npm_exited');
  }, pollMs);
  watch.unref();
}
