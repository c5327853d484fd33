// What a user may be told of one file's transfer: its bytes (never moving back, never all of it
// before the upload address has accepted it), its speed and its time left. DOM-free.

/**
 * Byte progress of one file as a user may be told it: derived from the bytes of the whole
 * multipart body sent so far, never moving backwards, and held below the file size until the
 * upload address has answered: a fully sent body is not yet an accepted file.
 */
export class ByteProgress {
  #loaded = 0;
  #done = false;

  constructor(readonly total: number) {}

  get loaded(): number {
    return this.#loaded;
  }

  get done(): boolean {
    return this.#done;
  }

  /** The most the bar shows before the answer: 99 % of the file, and always less than all of it. */
  get ceiling(): number {
    return Math.max(0, Math.min(this.total - 1, Math.floor(this.total * 0.99)));
  }

  /** Records `bodyLoaded` of `bodyTotal` multipart bytes sent; returns the file bytes to show. */
  update(bodyLoaded: number, bodyTotal: number): number {
    if (this.#done || !(bodyTotal > 0)) return this.#loaded;
    const share = Math.floor(this.total * Math.min(1, Math.max(0, bodyLoaded) / bodyTotal));
    this.#loaded = Math.max(this.#loaded, Math.min(this.ceiling, share));
    return this.#loaded;
  }

  /** The upload address accepted the file: all of it is there. */
  complete(): number {
    this.#done = true;
    this.#loaded = this.total;
    return this.#loaded;
  }
}

/** Speed and time left from recent byte samples (a sliding window, so stalls show quickly). */
export class TransferRate {
  #samples: { at: number; bytes: number }[] = [];

  constructor(readonly windowMs = 5000) {}

  add(bytes: number, at: number): void {
    this.#samples.push({ at, bytes });
    const horizon = at - this.windowMs;
    while (this.#samples.length > 2 && this.#samples[1]!.at <= horizon) this.#samples.shift();
  }

  /** Bytes per second over the window; undefined until two samples are apart in time. */
  get bytesPerSecond(): number | undefined {
    const first = this.#samples[0];
    const last = this.#samples[this.#samples.length - 1];
    if (!first || !last || last.at <= first.at) return undefined;
    return Math.max(0, ((last.bytes - first.bytes) * 1000) / (last.at - first.at));
  }

  /** Seconds until `remaining` bytes are sent at the current speed; undefined when unknown. */
  secondsLeft(remaining: number): number | undefined {
    const speed = this.bytesPerSecond;
    if (!speed) return undefined;
    return Math.ceil(Math.max(0, remaining) / speed);
  }
}
