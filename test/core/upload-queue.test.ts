// The upload queue without a DOM: every collaborator is a fake (relay client, form poster, event
// watcher, storage, clock), so each case says exactly what the relay and the upload address do and
// checks the rows, the events and what was sent, stored and watched.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SvcError } from '../../src/core/errors.js';
import type { UploadCreated, UploadState } from '../../src/core/relay-client.js';
import type { UploadWatcherOptions } from '../../src/core/sse.js';
import type { PostFormOptions, PostFormResult } from '../../src/core/upload-form.js';
import {
  UploadQueue,
  type Clock,
  type FailureReason,
  type QueueEvent,
  type QueueSettings,
  type UploadRow,
  type UploadRowState,
} from '../../src/core/upload-queue.js';
import { UploadRows } from '../../src/core/upload-rows.js';

const MP4_HEAD = [0, 0, 0, 0x18, ...Buffer.from('ftypisom'), 0, 0, 0, 0];

/** A real MP4 head followed by padding: `size` bytes in all. */
function video(name: string, size = 4096): File {
  const bytes = new Uint8Array(size);
  bytes.set(MP4_HEAD);
  return new File([bytes], name, { type: 'video/mp4' });
}

/** A promise the test settles by hand. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

/** Rejects with `aborted` when `signal` fires, like fetch and XMLHttpRequest do. */
function hang<T>(signal?: AbortSignal): Promise<T> {
  return new Promise((_, reject) => signal?.addEventListener('abort', () => reject(new SvcError('aborted', 'The upload was cancelled.'))));
}

const tick = () => new Promise((resolve) => setImmediate(resolve));
/** Waits for `condition`: a few turns of the event loop, then (retries wait on real timers) up to 5 s. */
async function until(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 1200; i++) {
    if (condition()) return;
    await (i < 200 ? tick() : new Promise((resolve) => setTimeout(resolve, 5)));
  }
  assert.fail(`never: ${what}`);
}

type PostStep = 'ok' | 'hang' | 'network' | 'expired' | 'refused' | 'busy' | 'broken';

class FakeClock implements Clock {
  at = 1000;
  timers = new Map<number, { callback: () => void; due: number }>();
  #next = 1;
  now = () => this.at;
  setTimeout = (callback: () => void, ms: number) => {
    const id = this.#next++;
    this.timers.set(id, { callback, due: this.at + ms });
    return id;
  };
  clearTimeout = (handle: unknown) => void this.timers.delete(handle as number);
  advance(ms: number): void {
    this.at += ms;
    for (const [id, timer] of [...this.timers]) {
      if (timer.due <= this.at) {
        this.timers.delete(id);
        timer.callback();
      }
    }
  }
}

/** The world around one queue: what the relay answers, what the upload address does, what is kept. */
function harness(options: {
  settings?: Partial<QueueSettings>;
  post?: PostStep[];
  createUpload?: (body: { source: string }, signal?: AbortSignal) => Promise<UploadCreated>;
  markUploaded?: (uploadId: string, signal?: AbortSignal) => Promise<UploadState>;
  upload?: (uploadId: string) => Promise<UploadState>;
  limit?: number;
  stored?: string[];
  rows?: UploadRows;
} = {}) {
  const calls: string[] = [];
  const events: QueueEvent[] = [];
  const posts: PostFormOptions[] = [];
  const watched = new Set<string>();
  const watchers: Pick<UploadWatcherOptions, 'onEvent' | 'onError'>[] = [];
  let closed = 0;
  const stored = [...(options.stored ?? [])];
  const steps = [...(options.post ?? [])];
  const clock = new FakeClock();
  let signed = 0;
  const settings: QueueSettings = {
    accept: 'video/*',
    concurrency: 2,
    stillProcessingAfter: 60_000,
    networkRetries: 3,
    retryDelay: 1,
    ...options.settings,
  };
  const queue = new UploadQueue({
    rows: options.rows ?? new UploadRows(),
    client: () => ({
      createUpload: async (body, signal) => {
        calls.push(`createUpload ${body.source}`);
        if (options.createUpload) return options.createUpload(body, signal);
        signed++;
        return { upload_id: `up-${signed}`, upload_url: 'https://upload.test/', fields: [['key', `k${signed}`]] };
      },
      markUploaded: async (uploadId, signal) => {
        calls.push(`markUploaded ${uploadId}`);
        if (options.markUploaded) return options.markUploaded(uploadId, signal);
        return { upload_id: uploadId, source: 'x', state: 'processing' };
      },
      upload: async (uploadId) => {
        calls.push(`upload ${uploadId}`);
        if (options.upload) return options.upload(uploadId);
        return { upload_id: uploadId, source: 'x', state: 'processing' };
      },
    }),
    post: (form): Promise<PostFormResult> => {
      posts.push(form);
      calls.push(`post ${form.fields[0]![1]}`);
      const step = steps.shift() ?? 'ok';
      const size = form.file.size;
      switch (step) {
        case 'ok':
          form.onProgress?.(Math.floor(size / 2), size);
          clock.at += 1000;
          form.onProgress?.(size - 1, size);
          form.onSent?.();
          form.onProgress?.(size, size);
          return Promise.resolve({ status: 201, body: '' });
        case 'hang':
          form.onProgress?.(Math.floor(size / 4), size);
          return hang(form.signal);
        case 'network':
          return Promise.reject(new SvcError('network_error', 'The connection to the upload address failed.'));
        case 'expired':
          return Promise.reject(new SvcError('signature_expired', 'The upload signature expired (ExpiredToken)', 403));
        case 'refused':
          return Promise.reject(new SvcError('upload_rejected', 'The upload address refused the file: Denied (AccessDenied)', 403));
        case 'busy':
          return Promise.reject(new SvcError('rate_limited', 'The upload address is busy (HTTP 429).', 429, undefined, undefined, 7));
        case 'broken':
          return Promise.reject(new SvcError('upload_failed', 'The upload address failed with HTTP 500.', 500));
      }
    },
    watcher: (handlers) => {
      watchers.push(handlers);
      return {
        watch: (id) => void watched.add(id),
        unwatch: (id) => void watched.delete(id),
        close: () => {
          closed++;
          watched.clear();
        },
      };
    },
    storage: {
      list: () => [...stored],
      add: (id) => void (stored.includes(id) || stored.push(id)),
      remove: (id) => void (stored.includes(id) && stored.splice(stored.indexOf(id), 1)),
    },
    settings: () => settings,
    limit: async () => options.limit,
    message: (reason: FailureReason, row: UploadRow, maxSize?: number) => `${reason}:${row.name}${maxSize === undefined ? '' : `:${maxSize}`}`,
    restoredName: (uploadId) => `Upload ${uploadId}`,
    onEvent: (event) => events.push(event),
    clock,
  });
  /** Every state each row went through, in order, as a subscriber saw them. */
  const history = new Map<string, UploadRowState[]>();
  queue.subscribe(() => {
    for (const row of queue.rows) {
      const seen = history.get(row.id) ?? [];
      if (seen.at(-1) !== row.state) seen.push(row.state);
      history.set(row.id, seen);
    }
  });
  /** The relay's event stream says `state` for `uploadId`. */
  const push = (uploadId: string, state: UploadState['state'], vod?: UploadState['vod']) =>
    watchers.at(-1)!.onEvent({ upload_id: uploadId, source: 'x', state, ...(vod ? { vod } : {}) });
  const row = (id: string) => queue.rows.find((r) => r.id === id)!;
  const types = (id?: string) => events.filter((e) => !id || e.row.id === id).map((e) => e.type);
  return { queue, calls, events, posts, watched, watchers, stored, clock, history, push, row, types, settings, closed: () => closed };
}

describe('UploadQueue and the row list it is given', () => {
  it('takes up rows queued in the list before it was made: checks their files, then runs them, in that same list', async () => {
    const list = new UploadRows();
    const file = video('early.mp4');
    list.insert({ id: 'upload-1', name: file.name, size: file.size, file, state: 'queued' });
    const note = Object.assign(new Blob(['not a video'], { type: 'text/plain' }), { name: 'notes.txt' });
    list.insert({ id: 'upload-2', name: note.name, size: note.size, file: note, state: 'queued' });
    const h = harness({ rows: list });
    assert.equal(h.queue.rows, list.rows, 'one list: the element shows what the queue runs');
    assert.equal(h.row('upload-1').state, 'signing', 'started at once');
    assert.equal(h.row('upload-2').state, 'failed');
    assert.equal(h.row('upload-2').reason, 'type');
    assert.deepEqual(h.types(), ['queued', 'failed']);
    await until(() => h.watched.has('up-1'), 'processing and watched');
    const before = h.types().length;
    h.queue.admit(); // taken up once: nothing checked or started twice
    assert.deepEqual(h.types().slice(before), []);
    assert.deepEqual(h.types().filter((type) => type !== 'progress'), ['queued', 'failed', 'start', 'uploaded', 'processing']);
  });
});

describe('UploadQueue: one file through to ready', () => {
  it('add → signing → uploading → processing → ready, with events, storage and watching in step', async () => {
    const h = harness();
    const added = h.queue.add(video('a.mp4'));
    assert.equal(added.state, 'signing', 'it starts at once');
    await until(() => h.watched.has('up-1'), 'processing and watched');
    assert.deepEqual(h.stored, ['up-1'], 'kept for a reload while processing');
    h.push('up-1', 'ready', { id: 'vod-9', title: 'A' });
    const row = h.row(added.id);
    assert.equal(row.state, 'ready');
    assert.deepEqual(row.vod, { id: 'vod-9', title: 'A' });
    assert.deepEqual(h.history.get(added.id), ['queued', 'signing', 'uploading', 'processing', 'ready']);
    assert.deepEqual(h.types(), ['queued', 'start', 'progress', 'progress', 'progress', 'uploaded', 'processing', 'ready']);
    const progress = h.events.filter((e) => e.type === 'progress').map((e) => e.row.loaded);
    assert.deepEqual(progress, [2048, 4095, 4096]);
    assert.deepEqual(h.calls, ['createUpload a.mp4', 'post k1', 'markUploaded up-1']);
    assert.equal(h.posts[0]!.file.size, 4096);
    assert.deepEqual(h.stored, [], 'forgotten once ready');
    assert.equal(h.watched.size, 0, 'no longer watched');
  });

  it('shows speed and time left while sending, and "sent" while the answer is awaited', async () => {
    const h = harness({ post: ['hang'] });
    const { id } = h.queue.add(video('a.mp4', 100_000));
    await until(() => h.row(id).loaded > 0, 'first progress');
    h.clock.at += 1000;
    h.posts[0]!.onProgress!(50_000, 100_000);
    assert.equal(h.row(id).bytesPerSecond, 25_000);
    assert.equal(h.row(id).secondsLeft, 2);
    h.posts[0]!.onSent!();
    assert.equal(h.row(id).sent, true);
  });

  it('says "still processing" after the threshold, never a failure', async () => {
    const h = harness({ settings: { stillProcessingAfter: 5000 } });
    const { id } = h.queue.add(video('a.mp4'));
    await until(() => h.row(id).state === 'processing', 'processing');
    h.clock.advance(4999);
    assert.equal(h.row(id).stillProcessing, false);
    h.clock.advance(1);
    assert.equal(h.row(id).stillProcessing, true);
    assert.equal(h.row(id).state, 'processing');
    assert.deepEqual(h.types(id).slice(-2), ['processing', 'still-processing']);
  });
});

describe('UploadQueue: rows are immutable snapshots', () => {
  it('each change makes a new frozen row and a new list; an old snapshot never changes', async () => {
    const h = harness({ post: ['hang'] });
    const lists: (readonly UploadRow[])[] = [];
    h.queue.subscribe(() => lists.push(h.queue.rows));
    const { id } = h.queue.add(video('a.mp4'));
    const first = lists[0]![0]!;
    assert.ok(Object.isFrozen(first));
    await until(() => h.row(id).state === 'uploading', 'uploading');
    assert.equal(new Set(lists).size, lists.length, 'a new list for each change');
    assert.equal(first.state, 'queued', 'the first snapshot still says queued');
    assert.equal(first.loaded, 0);
    const states = lists.map((rows) => rows[0]!.state).filter((state, i, all) => state !== all[i - 1]);
    assert.deepEqual(states, ['queued', 'signing', 'uploading'], 'each list shows the row as it was then');
    assert.throws(() => ((h.row(id) as { state: string }).state = 'ready'), TypeError);
    // Every event carries the row as it was then.
    const eventStates = h.events.map((e) => [e.type, e.row.state]);
    assert.deepEqual(eventStates, [['queued', 'queued'], ['start', 'uploading'], ['progress', 'uploading']]);
  });
});

describe('UploadQueue: cancel in each state', () => {
  const cases: { state: UploadRowState; setup: () => ReturnType<typeof harness>; aborts: boolean }[] = [
    {
      state: 'queued',
      setup: () => harness({ settings: { concurrency: 1 }, post: ['hang'] }),
      aborts: false,
    },
    {
      state: 'signing',
      setup: () => harness({ createUpload: (_, signal) => hang(signal) }),
      aborts: true,
    },
    {
      state: 'uploading',
      setup: () => harness({ post: ['hang'] }),
      aborts: true,
    },
  ];
  for (const { state, setup, aborts } of cases) {
    it(`cancels a ${state} row: cancelled, one cancel event, the next queued row starts`, async () => {
      const h = setup();
      const blocker = state === 'queued' ? h.queue.add(video('first.mp4')) : undefined;
      const { id } = h.queue.add(video('a.mp4'));
      const next = h.queue.add(video('b.mp4'));
      await until(() => h.row(id).state === state, state);
      if (state !== 'uploading') await tick();
      const signal = h.posts.find((p) => p.file === h.row(id).file)?.signal;
      h.queue.cancel(id);
      assert.equal(h.row(id).state, 'cancelled');
      assert.deepEqual(h.types(id).filter((t) => t === 'cancelled'), ['cancelled']);
      if (aborts && signal) assert.equal(signal.aborted, true, 'the transfer is aborted');
      await tick();
      assert.equal(h.row(id).state, 'cancelled', 'a late answer does not bring it back');
      assert.deepEqual(h.events.filter((e) => e.type === 'failed'), [], 'a cancel is no failure');
      if (!blocker) await until(() => h.row(next.id).state !== 'queued', 'the next one started');
      assert.equal(h.calls.includes('markUploaded up-1') && h.row(id).uploadId === 'up-1', false);
    });
  }

  for (const state of ['processing', 'ready', 'failed'] as const) {
    it(`leaves a ${state} row alone`, async () => {
      const h = harness({ post: state === 'failed' ? ['refused'] : ['ok'] });
      const { id } = h.queue.add(video('a.mp4'));
      await until(() => h.row(id).state === 'processing' || h.row(id).state === 'failed', 'settled');
      if (state === 'ready') h.push('up-1', 'ready', { id: 'v', title: 't' });
      assert.equal(h.row(id).state, state);
      h.queue.cancel(id);
      assert.equal(h.row(id).state, state);
      assert.equal(h.types(id).includes('cancelled'), false);
    });
  }
});

describe('UploadQueue: retry after failure', () => {
  const cases: {
    name: string;
    options: Parameters<typeof harness>[0];
    fail: (h: ReturnType<typeof harness>) => void;
    code: string;
    retryable: boolean;
    afterRetry: string[];
  }[] = [
    {
      name: 'the upload address refused the file: retry signs and sends again',
      options: { post: ['refused', 'ok'] },
      fail: () => undefined,
      code: 'upload_rejected',
      retryable: true,
      afterRetry: ['createUpload a.mp4', 'post k2', 'markUploaded up-2'],
    },
    {
      name: 'the relay failed to sign: retry asks again',
      options: {
        createUpload: (() => {
          let n = 0;
          return async () => {
            if (++n === 1) throw new SvcError('upstream_unavailable', 'The service answered 503.', 502);
            return { upload_id: 'up-7', upload_url: 'https://upload.test/', fields: [['key', 'k7']] as [string, string][] };
          };
        })(),
        settings: { networkRetries: 0 }, // else retried by itself (see "transient failures")
      },
      fail: () => undefined,
      code: 'upstream_unavailable',
      retryable: true,
      afterRetry: ['createUpload a.mp4', 'post k7', 'markUploaded up-7'],
    },
    {
      name: 'telling the relay failed after delivery: retry only tells it again',
      options: {
        markUploaded: (() => {
          let n = 0;
          return async (uploadId: string) => {
            if (++n === 1) throw new SvcError('upstream_timeout', 'The service took too long.', 504);
            return { upload_id: uploadId, source: 'a.mp4', state: 'processing' as const };
          };
        })(),
        settings: { networkRetries: 0 },
      },
      fail: () => undefined,
      code: 'upstream_timeout',
      retryable: true,
      afterRetry: ['markUploaded up-1'],
    },
    {
      name: 'the service failed to process it: retry sends the file again',
      options: {},
      fail: (h) => h.push('up-1', 'failed'),
      code: 'upload_failed',
      retryable: true,
      afterRetry: ['createUpload a.mp4', 'post k2', 'markUploaded up-2'],
    },
    {
      name: 'the relay forgot the upload while it was processing',
      options: {},
      fail: (h) => h.watchers.at(-1)!.onError!(new SvcError('not_found', 'Unknown upload.', 404), 'up-1'),
      code: 'not_found',
      retryable: true,
      afterRetry: ['markUploaded up-1'],
    },
  ];
  for (const { name, options, fail, code, retryable, afterRetry } of cases) {
    it(name, async () => {
      const h = harness(options);
      const { id } = h.queue.add(video('a.mp4'));
      await until(() => ['processing', 'failed'].includes(h.row(id).state), 'settled');
      fail(h);
      assert.equal(h.row(id).state, 'failed');
      assert.equal(h.row(id).error?.code, code);
      assert.equal(h.types(id).filter((t) => t === 'failed').length, 1);
      assert.equal(h.queue.canRetry(h.row(id)), retryable);
      const before = h.calls.length;
      h.queue.retry(id);
      assert.equal(h.row(id).state === 'queued' || h.row(id).state === 'signing' || h.row(id).state === 'processing', true);
      assert.equal(h.row(id).error, undefined);
      await until(() => h.watched.has(h.row(id).uploadId!), 'processing again, and watched');
      assert.deepEqual(h.calls.slice(before), afterRetry);
      h.push(h.row(id).uploadId!, 'ready', { id: 'v1', title: 'A' });
      assert.equal(h.row(id).state, 'ready');
    });
  }

  it('a cancelled row can be retried; a ready one cannot', async () => {
    const h = harness({ post: ['hang', 'ok'] });
    const { id } = h.queue.add(video('a.mp4'));
    await until(() => h.row(id).state === 'uploading', 'uploading');
    h.queue.cancel(id);
    assert.equal(h.row(id).loaded, 1024);
    h.queue.retry(id);
    assert.equal(h.types(id).at(-1), 'queued');
    await until(() => h.row(id).state === 'processing', 'processing');
    h.push(h.row(id).uploadId!, 'ready', { id: 'v', title: 't' });
    assert.equal(h.queue.canRetry(h.row(id)), false);
    h.queue.retry(id);
    assert.equal(h.row(id).state, 'ready');
  });
});

describe('UploadQueue: concurrency', () => {
  for (const concurrency of [1, 2, 3]) {
    it(`never more than ${concurrency} signing or uploading at once, in the order added`, async () => {
      const gates: ReturnType<typeof deferred<void>>[] = [];
      let most = 0;
      const h = harness({
        settings: { concurrency },
        markUploaded: async (uploadId) => ({ upload_id: uploadId, source: 'x', state: 'ready', vod: { id: `v-${uploadId}`, title: 't' } }),
        createUpload: async (body) => {
          const gate = deferred<void>();
          gates.push(gate);
          await gate.promise;
          return { upload_id: `up-${body.source}`, upload_url: 'https://upload.test/', fields: [['key', body.source]] };
        },
      });
      h.queue.subscribe(() => (most = Math.max(most, h.queue.rows.filter((r) => r.state === 'signing' || r.state === 'uploading').length)));
      const names = ['a', 'b', 'c', 'd', 'e'].map((n) => `${n}.mp4`);
      for (const name of names) h.queue.add(video(name));
      assert.deepEqual(
        h.queue.rows.map((r) => r.state),
        names.map((_, i) => (i < concurrency ? 'signing' : 'queued')),
      );
      while (h.queue.rows.some((r) => r.state !== 'ready')) {
        await until(() => gates.length > 0 || h.queue.rows.every((r) => r.state === 'ready'), 'a signing request');
        gates.shift()?.resolve();
        await tick();
      }
      assert.equal(most, concurrency);
      assert.deepEqual(h.calls.filter((c) => c.startsWith('createUpload')), names.map((n) => `createUpload ${n}`));
    });
  }

  it('a concurrency below 1 (or not a number) still lets one through', () => {
    for (const concurrency of [0, -3, Number.NaN]) {
      const h = harness({ settings: { concurrency }, post: ['hang', 'hang'] });
      h.queue.add(video('a.mp4'));
      h.queue.add(video('b.mp4'));
      assert.deepEqual(h.queue.rows.map((r) => r.state), ['signing', 'queued'], String(concurrency));
    }
  });
});

describe('UploadQueue: network retry and signature renewal', () => {
  const cases: { name: string; post: PostStep[]; retries: number; state: UploadRowState; code?: string; posts: number; signs: number }[] = [
    { name: 'two lost connections, then through', post: ['network', 'network', 'ok'], retries: 3, state: 'processing', posts: 3, signs: 1 },
    { name: 'lost every time: fails after the retries', post: ['network', 'network', 'network', 'network'], retries: 3, state: 'failed', code: 'network_error', posts: 4, signs: 1 },
    { name: 'no retries allowed', post: ['network'], retries: 0, state: 'failed', code: 'network_error', posts: 1, signs: 1 },
    { name: 'an expired signature is renewed once', post: ['expired', 'ok'], retries: 3, state: 'processing', posts: 2, signs: 2 },
    { name: 'a second expiry fails the row', post: ['expired', 'expired'], retries: 3, state: 'failed', code: 'signature_expired', posts: 2, signs: 2 },
    { name: 'a refusal is not retried', post: ['refused'], retries: 3, state: 'failed', code: 'upload_rejected', posts: 1, signs: 1 },
  ];
  for (const { name, post, retries, state, code, posts, signs } of cases) {
    it(name, async () => {
      const h = harness({ post, settings: { networkRetries: retries } });
      const notes: string[] = [];
      h.queue.subscribe(() => {
        const note = h.queue.rows[0]?.note;
        const text = note ? (note.kind === 'retrying' ? `retrying ${note.attempt}` : note.kind) : '';
        if (text && notes.at(-1) !== text) notes.push(text);
      });
      const { id } = h.queue.add(video('a.mp4'));
      await until(() => ['processing', 'failed'].includes(h.row(id).state), 'settled');
      assert.equal(h.row(id).state, state);
      assert.equal(h.row(id).error?.code, code);
      assert.equal(h.posts.length, posts);
      assert.equal(h.calls.filter((c) => c.startsWith('createUpload')).length, signs);
      const expectedNotes = post.slice(0, -1).map((step, i) => (step === 'network' ? `retrying ${i + 1}` : 'renewing'));
      assert.deepEqual(notes, state === 'failed' && post.at(-1) === 'network' ? expectedNotes : expectedNotes.filter((n) => n));
      assert.equal(h.row(id).note, undefined, 'no note left once settled');
      assert.deepEqual(h.types(id).filter((t) => t === 'start'), ['start'], 'one start across attempts');
    });
  }
});

describe('UploadQueue: rejected files', () => {
  const cases: { name: string; file: File; settings?: Partial<QueueSettings>; limit?: number; reason: FailureReason; message: string; relayCalls: number }[] = [
    { name: 'an empty file', file: new File([], 'empty.mp4', { type: 'video/mp4' }), reason: 'empty', message: 'empty:empty.mp4', relayCalls: 0 },
    { name: 'a type outside accept', file: new File(['text'], 'notes.txt', { type: 'text/plain' }), reason: 'type', message: 'type:notes.txt', relayCalls: 0 },
    { name: 'larger than max-size', file: video('big.mp4', 2000), settings: { maxSize: 1000 }, reason: 'size', message: 'size:big.mp4:1000', relayCalls: 0 },
    { name: 'not a video inside', file: new File(['Meeting notes.\n'.repeat(40)], 'renamed.mp4', { type: 'video/mp4' }), reason: 'content', message: 'content:renamed.mp4', relayCalls: 0 },
    { name: "larger than the relay's limit", file: video('big.mp4', 2000), limit: 1500, reason: 'size', message: 'size:big.mp4:1500', relayCalls: 0 },
  ];
  for (const { name, file, settings, limit, reason, message, relayCalls } of cases) {
    it(`${name}: failed with file_rejected, no retry, nothing sent`, async () => {
      const h = harness({ settings, limit });
      const { id } = h.queue.add(file);
      await until(() => h.row(id).state === 'failed', 'failed');
      const row = h.row(id);
      assert.equal(row.reason, reason);
      assert.deepEqual(row.error, { code: 'file_rejected', message });
      assert.equal(h.queue.canRetry(row), false);
      h.queue.retry(id);
      assert.equal(h.row(id).state, 'failed');
      assert.equal(h.calls.length, relayCalls);
      assert.deepEqual(h.types(id), reason === 'content' || limit ? ['queued', 'failed'] : ['failed']);
    });
  }

  it('a rejected row does not hold a concurrency slot', async () => {
    const h = harness({ settings: { concurrency: 1 }, post: ['hang'] });
    h.queue.add(new File([], 'empty.mp4', { type: 'video/mp4' }));
    const ok = h.queue.add(video('ok.mp4'));
    assert.equal(h.row(ok.id).state, 'signing');
  });
});

describe('UploadQueue: restore after reload', () => {
  it('shows processing uploads again from storage, drops what the relay no longer has, keeps what it could not ask', async () => {
    const answers: Record<string, UploadState | SvcError> = {
      'up-proc': { upload_id: 'up-proc', source: 'proc.mp4', state: 'processing' },
      'up-ready': { upload_id: 'up-ready', source: 'ready.mp4', state: 'ready', vod: { id: 'v1', title: 'R' } },
      'up-noname': { upload_id: 'up-noname', source: '', state: 'processing' },
      'up-gone': new SvcError('not_found', 'Unknown upload.', 404),
      'up-theirs': new SvcError('forbidden', 'Not yours.', 403),
      'up-down': new SvcError('relay_unreachable', 'The relay cannot be reached.'),
    };
    const h = harness({
      stored: Object.keys(answers),
      upload: async (uploadId) => {
        const answer = answers[uploadId]!;
        if (answer instanceof SvcError) throw answer;
        return answer;
      },
    });
    await h.queue.restore();
    const rows = h.queue.rows.map((r) => [r.name, r.state, r.restored, r.uploadId]);
    assert.deepEqual(rows, [
      ['proc.mp4', 'processing', true, 'up-proc'],
      ['ready.mp4', 'ready', true, 'up-ready'],
      ['Upload up-noname', 'processing', true, 'up-noname'],
    ]);
    assert.deepEqual(h.stored, ['up-proc', 'up-noname', 'up-down']);
    assert.deepEqual([...h.watched].sort(), ['up-noname', 'up-proc']);
    assert.deepEqual(h.types(), ['ready']);
    // A restored row has no file: it cannot be retried, and it follows the stream to ready.
    h.push('up-proc', 'ready', { id: 'v2', title: 'P' });
    const proc = h.queue.rows[0]!;
    assert.equal(proc.state, 'ready');
    assert.equal(h.queue.canRetry(proc), false);
    assert.deepEqual(h.stored, ['up-noname', 'up-down']);
    // Restoring twice shows nothing twice.
    await h.queue.restore();
    assert.equal(h.queue.rows.length, 3);
  });
});

describe('UploadQueue: ids and removal while the relay is asked', () => {
  it('gives restored rows ids of their own: a file added after a restore never shares one', async () => {
    const h = harness({ stored: ['up-old'], upload: async (uploadId) => ({ upload_id: uploadId, source: 'old.mp4', state: 'processing' }) });
    await h.queue.restore();
    // The element names added rows upload-1, upload-2, … with its own counter.
    const added = h.queue.add(video('new.mp4'), 'upload-1');
    const ids = h.queue.rows.map((row) => row.id);
    assert.equal(new Set(ids).size, ids.length, `ids ${ids.join(', ')}`);
    await until(() => h.row(added.id).state === 'processing', 'the new file processing');
    const restored = h.queue.rows.find((row) => row.restored)!;
    assert.equal(restored.name, 'old.mp4');
    assert.equal(restored.state, 'processing');
    h.queue.remove(restored.id);
    assert.deepEqual(h.queue.rows.map((row) => row.name), ['new.mp4'], 'removing the restored row leaves the new one');
  });

  it('does not store (nor show again after a reload) an upload removed while the relay confirmed it', async () => {
    let confirm!: () => void;
    const h = harness({
      markUploaded: (uploadId) => new Promise((resolve) => (confirm = () => resolve({ upload_id: uploadId, source: 'a.mp4', state: 'processing' }))),
    });
    const row = h.queue.add(video('a.mp4'));
    await until(() => h.row(row.id).state === 'processing' && confirm !== undefined, 'asking the relay');
    h.queue.remove(row.id);
    confirm();
    await new Promise((resolve) => setTimeout(resolve, 10));
    assert.deepEqual(h.stored, []);
    assert.deepEqual(h.queue.rows, []);
    assert.deepEqual([...h.watched], []);
  });
});

describe('UploadQueue: remove, detach and attach', () => {
  it('removes a row that is not transferring, forgets and unwatches its upload; a running one stays', async () => {
    const h = harness({ post: ['ok', 'hang'] });
    const a = h.queue.add(video('a.mp4'));
    await until(() => h.row(a.id).state === 'processing', 'processing');
    const b = h.queue.add(video('b.mp4'));
    await until(() => h.row(b.id).state === 'uploading', 'uploading');
    h.queue.remove(b.id);
    assert.equal(h.row(b.id).state, 'uploading', 'cancel it first');
    h.queue.remove(a.id);
    assert.deepEqual(h.queue.rows.map((r) => r.id), [b.id]);
    assert.deepEqual(h.stored, []);
    assert.equal(h.watched.has('up-1'), false);
  });

  it('stops watching when detached and watches every processing upload again when attached', async () => {
    const h = harness();
    const { id } = h.queue.add(video('a.mp4'));
    await until(() => h.watched.has('up-1'), 'watched');
    h.queue.detach();
    assert.equal(h.closed(), 1);
    assert.equal(h.watched.size, 0);
    h.queue.attach();
    assert.deepEqual([...h.watched], ['up-1']);
    assert.equal(h.watchers.length, 2, 'a fresh watcher');
    h.push('up-1', 'ready', { id: 'v', title: 't' });
    assert.equal(h.row(id).state, 'ready');
  });
});

/** A relay's fixed-window limit on signing (as src/relay/rate-limit.ts): 429 with Retry-After past `limit` per window. */
function limitedSigning(clock: FakeClock, limit: number, windowMs = 60_000) {
  let resetAt = 0;
  let count = 0;
  let signed = 0;
  const refused: number[] = [];
  const createUpload = async (): Promise<UploadCreated> => {
    if (clock.at >= resetAt) {
      resetAt = clock.at + windowMs;
      count = 0;
    }
    if (++count > limit) {
      refused.push(clock.at);
      throw new SvcError('rate_limited', 'Too many requests.', 429, undefined, undefined, Math.ceil((resetAt - clock.at) / 1000));
    }
    signed++;
    return { upload_id: `up-${signed}`, upload_url: 'https://upload.test/', fields: [['key', `k${signed}`]] };
  };
  return { createUpload, refused, signed: () => signed, resetAt: () => resetAt };
}

describe('UploadQueue: a folder larger than the limits', () => {
  it('429 with Retry-After pauses the whole queue, rows stay queued, then every row reaches ready', async () => {
    const relay: { limited?: ReturnType<typeof limitedSigning> } = {}; // needs the harness's clock
    const h = harness({
      settings: { concurrency: 3 },
      createUpload: () => relay.limited!.createUpload(),
      markUploaded: async (uploadId) => ({ upload_id: uploadId, source: 'x', state: 'ready', vod: { id: `v-${uploadId}`, title: 't' } }),
    });
    const limited = (relay.limited = limitedSigning(h.clock, 5, 300_000)); // a window far longer than the harness's clock moves per transfer
    const names = Array.from({ length: 23 }, (_, i) => `clip-${i}.mp4`);
    for (const name of names) h.queue.add(video(name));
    let waits = 0;
    while (!h.queue.rows.every((r) => r.state === 'ready')) {
      await until(() => h.queue.waitingUntil !== undefined || h.queue.rows.every((r) => r.state === 'ready'), 'a wait or the end');
      const waitingUntil = h.queue.waitingUntil;
      if (waitingUntil === undefined) break;
      await until(() => !h.queue.rows.some((r) => r.state === 'signing' || r.state === 'uploading'), 'the running rows settled');
      waits++;
      // Retry-After counts from the answer (the fake transfers move this clock a second each meanwhile).
      const early = limited.resetAt() - waitingUntil;
      assert.ok(early <= 0 && early > -5000, `waits until the window ends, as Retry-After says (${early} ms)`);
      const before = limited.refused.length;
      h.clock.advance(waitingUntil - h.clock.at - 1);
      await tick();
      assert.equal(limited.refused.length, before, 'nothing is asked while waiting');
      assert.ok(h.queue.rows.every((r) => r.state === 'ready' || r.state === 'queued'), 'the rest stay queued');
      h.clock.advance(1);
      assert.equal(h.queue.waitingUntil, undefined);
    }
    assert.equal(waits, 4, '23 files at 5 a window: four waits');
    assert.deepEqual(h.queue.rows.map((r) => r.state), names.map(() => 'ready'));
    assert.equal(h.types().filter((t) => t === 'failed').length, 0, 'no row ever failed');
    assert.ok(h.queue.rows.every((r) => !r.error));
    assert.equal(limited.signed(), 23, 'each file signed once');
    assert.equal(h.types().filter((t) => t === 'start').length, 23);
  });

  it('503 without Retry-After waits a growing backoff, then resumes', async () => {
    let n = 0;
    const h = harness({
      settings: { concurrency: 1 },
      createUpload: async () => {
        if (++n <= 2) throw new SvcError('upstream_unavailable', 'The relay is shutting down.', 503);
        return { upload_id: `up-${n}`, upload_url: 'https://upload.test/', fields: [['key', `k${n}`]] };
      },
    });
    const { id } = h.queue.add(video('a.mp4'));
    await until(() => h.queue.waitingUntil !== undefined, 'waiting');
    const first = h.queue.waitingUntil! - h.clock.at;
    assert.ok(first >= 1000 && first <= 2000, `first wait ${first}`);
    assert.equal(h.row(id).state, 'queued');
    h.clock.advance(first);
    await until(() => h.queue.waitingUntil !== undefined, 'waiting again');
    const second = h.queue.waitingUntil! - h.clock.at;
    assert.ok(second >= 2000 && second <= 4000, `second wait ${second}`);
    h.clock.advance(second);
    await until(() => h.row(id).state === 'processing', 'through');
    assert.equal(h.types(id).includes('failed'), false);
  });

  it('a 429 from the upload address keeps the signature: sent again without signing again', async () => {
    const h = harness({ post: ['busy', 'ok'] });
    const { id } = h.queue.add(video('a.mp4'));
    await until(() => h.queue.waitingUntil !== undefined, 'waiting');
    assert.equal(h.queue.waitingUntil, h.clock.at + 7000, 'Retry-After: 7');
    assert.equal(h.row(id).state, 'queued');
    h.clock.advance(7000);
    await until(() => h.row(id).state === 'processing', 'through');
    assert.deepEqual(h.calls, ['createUpload a.mp4', 'post k1', 'post k1', 'markUploaded up-1']);
    assert.deepEqual(h.types(id).filter((t) => t === 'start'), ['start']);
  });
});

describe('UploadQueue: transient failures', () => {
  it('the relay failing to sign (502) is retried with backoff, a bounded number of times', async () => {
    for (const [failures, retries, state] of [[2, 3, 'processing'], [4, 3, 'failed']] as const) {
      let n = 0;
      const h = harness({
        settings: { networkRetries: retries },
        createUpload: async () => {
          if (++n <= failures) throw new SvcError('upstream_unavailable', 'Bad gateway.', 502);
          return { upload_id: 'up-1', upload_url: 'https://upload.test/', fields: [['key', 'k1']] };
        },
      });
      const notes: number[] = [];
      h.queue.subscribe(() => {
        const note = h.queue.rows[0]?.note;
        if (note?.kind === 'retrying' && notes.at(-1) !== note.attempt) notes.push(note.attempt);
      });
      const { id } = h.queue.add(video('a.mp4'));
      await until(() => h.row(id).state === state, state);
      assert.equal(n, Math.min(failures + 1, retries + 1), 'asked again each time, at most the retries');
      assert.deepEqual(notes, [1, 2, 3].slice(0, Math.min(failures, retries)));
      if (state === 'failed') assert.equal(h.row(id).error?.code, 'upstream_unavailable');
    }
  });

  it('408 and 5xx telling the relay are retried; a 500 from the upload address is retried in place', async () => {
    let n = 0;
    const h = harness({
      post: ['broken', 'ok'],
      markUploaded: async (uploadId) => {
        if (++n === 1) throw new SvcError('internal', 'Request timeout.', 408);
        return { upload_id: uploadId, source: 'x', state: 'processing' };
      },
    });
    const { id } = h.queue.add(video('a.mp4'));
    await until(() => h.watched.has('up-1'), 'processing');
    assert.deepEqual(h.calls, ['createUpload a.mp4', 'post k1', 'post k1', 'markUploaded up-1', 'markUploaded up-1']);
    assert.equal(h.row(id).note, undefined);
  });

  it("one row's failure does not touch the others", async () => {
    const h = harness({ post: ['refused', 'ok', 'ok'], settings: { concurrency: 1 } });
    const ids = ['a', 'b', 'c'].map((n) => h.queue.add(video(`${n}.mp4`)).id);
    await until(() => h.queue.rows.every((r) => r.state === 'processing' || r.state === 'failed'), 'settled');
    assert.deepEqual(ids.map((id) => h.row(id).state), ['failed', 'processing', 'processing']);
  });
});

describe('UploadQueue: acting on every row', () => {
  it('retryFailed starts every failed row that can be sent again; clearFinished removes ready and cancelled rows', async () => {
    const h = harness({ post: ['refused', 'refused', 'ok', 'hang', 'ok', 'ok'], settings: { concurrency: 1 } });
    const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((n) => h.queue.add(video(`${n}.mp4`)).id) as [string, string, string, string];
    const rejected = h.queue.add(new File([], 'empty.mp4', { type: 'video/mp4' })).id;
    await until(() => h.row(d).state === 'uploading', 'd uploading');
    h.queue.cancel(d);
    h.push(h.row(c).uploadId!, 'ready', { id: 'v-c', title: 'c' });
    assert.deepEqual([a, b, c, d, rejected].map((id) => h.row(id).state), ['failed', 'failed', 'ready', 'cancelled', 'failed']);
    h.queue.clearFinished();
    assert.deepEqual(h.queue.rows.map((r) => r.id), [a, b, rejected]);
    h.queue.retryFailed();
    await until(() => h.row(a).state === 'processing' && h.row(b).state === 'processing', 'both sent again');
    assert.equal(h.row(rejected).state, 'failed', 'a rejected file stays failed');
  });
});
