// The DOM-free helpers of <svc-channel-setup>: string templates, the credential-free channel that
// leaves the element in events, the form's checks and the panel's rows.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { publicChannel } from '../../../src/elements/svc-channel-setup/public-channel.js';
import { format } from '../../../src/elements/shared/intl.js';
import { defaultStrings } from '../../../src/elements/svc-channel-setup/strings.js';
import { DEFAULT_LIMITS, problems, refusedFields, request, type Problems } from '../../../src/elements/svc-channel-setup/form-rules.js';
import { isWebUrl, settings } from '../../../src/elements/svc-channel-setup/settings.js';
import type { Channel, ChannelCreateRequest, Region } from '../../../src/service/types.js';

describe('format', () => {
  it('fills placeholders and leaves unknown ones', () => {
    assert.equal(format(defaultStrings.renditionInvalid, { min: 1, max: 5 }), 'Enter a whole number from 1 to 5.');
    assert.equal(format('{a} {b} {a}', { a: 'x' }), 'x {b} x');
  });
});

describe('publicChannel', () => {
  const channel = {
    id: 'c1',
    title: 'T',
    password: 'top-level-secret',
    share_code: { facebook: 'f', gplus: 'g', twitter: 't' },
    config: {
      publishing_point_primary: 'rtmp://p/live',
      publishing_point_backup: 'rtmp://b/live',
      login: 'the-login',
      password: 'the-password',
      stream_name: 'the-stream-key',
      live_transcoding: true,
      publishing_point_type: null,
    },
  } as unknown as Channel;

  it('drops login, password, stream key and the top-level password, and keeps the rest', () => {
    const result = publicChannel(channel);
    assert.deepEqual(result, {
      id: 'c1',
      title: 'T',
      share_code: { facebook: 'f', gplus: 'g', twitter: 't' },
      config: {
        publishing_point_primary: 'rtmp://p/live',
        publishing_point_backup: 'rtmp://b/live',
        live_transcoding: true,
        publishing_point_type: null,
      },
    });
    for (const secret of ['top-level-secret', 'the-login', 'the-password', 'the-stream-key']) {
      assert.ok(!JSON.stringify(result).includes(secret));
    }
  });

  it('returns a copy that cannot change the element’s channel', () => {
    const result = publicChannel(channel);
    result.share_code.facebook = 'changed';
    assert.equal(channel.share_code.facebook, 'f');
  });
});

describe('problems (the form’s checks)', () => {
  const limits = DEFAULT_LIMITS;
  const valid = { title: 'T', description: '', region: 'europe', rendition_count: 2 } as const;
  const cases: [string, Partial<ChannelCreateRequest>, Problems][] = [
    ['valid values', {}, {}],
    ['an empty title', { title: '' }, { title: 'required' }],
    ['a title of 255 characters', { title: 'x'.repeat(255) }, {}],
    ['a title of 256 characters', { title: 'x'.repeat(256) }, { title: 'too_long' }],
    ['a description of 5001 characters', { description: 'x'.repeat(5001) }, { description: 'too_long' }],
    ['an unknown region', { region: 'mars' as Region }, { region: 'required' }],
    ['0 renditions', { rendition_count: 0 }, { rendition_count: 'out_of_range' }],
    ['6 renditions', { rendition_count: 6 }, { rendition_count: 'out_of_range' }],
    ['2.5 renditions', { rendition_count: 2.5 }, { rendition_count: 'out_of_range' }],
    ['no number', { rendition_count: Number.NaN }, { rendition_count: 'out_of_range' }],
  ];
  for (const [name, change, expected] of cases) {
    it(name, () => assert.deepEqual(problems({ ...valid, ...change }, limits), expected));
  }

  it('uses the relay’s limits', () => {
    const narrow = { regions: ['europe' as Region], rendition_count: { min: 2, max: 3 } };
    assert.deepEqual(problems({ ...valid, region: 'asia_pacific', rendition_count: 4 }, narrow), {
      region: 'required',
      rendition_count: 'out_of_range',
    });
  });

  it('trims the title of the request, and keeps the description as typed', () => {
    assert.deepEqual(request({ title: '  Live  ', description: ' d ', region: 'europe', renditions: 3 }), {
      title: 'Live',
      description: ' d ',
      region: 'europe',
      rendition_count: 3,
    });
  });
});

describe('refusedFields (the relay’s 400 fields, in the form’s words)', () => {
  it('gives each known field the form’s reason, or "refused", and drops unknown names', () => {
    const values = { title: 'Tab\there', description: '', region: 'mars' as Region, rendition_count: 9 };
    const fields = { title: 'must not contain control characters', region: 'x', rendition_count: 'y', extra: 'z' };
    assert.deepEqual(refusedFields(fields, values, DEFAULT_LIMITS), {
      title: 'refused',
      region: 'required',
      rendition_count: 'out_of_range',
    });
    assert.deepEqual(refusedFields(undefined, values, DEFAULT_LIMITS), {});
  });
});

describe('settings (the panel’s rows)', () => {
  const channel = {
    id: 'c1',
    title: 'T',
    share_code: { facebook: 'javascript:alert(1)', twitter: 'https://player.example/live/1', gplus: '' },
    config: { publishing_point_primary: 'rtmp://p', publishing_point_backup: null, stream_name: 'key', login: 'l', password: 'pw' },
  } as unknown as Channel;

  it('lists the settings in order, without a backup row when there is none, with only a web URL as link', () => {
    const rows = settings(channel, defaultStrings);
    assert.deepEqual(rows.map((row) => row.key), ['id', 'primary', 'stream-key', 'login', 'password', 'player-link']);
    assert.deepEqual(rows.filter((row) => row.secret).map((row) => row.secret), ['login', 'password']);
    assert.equal(rows.at(-1)!.href, 'https://player.example/live/1');
  });

  it('has no player link when no share code is a web URL', () => {
    const rows = settings({ ...channel, share_code: { facebook: 'javascript:x', twitter: 'ftp://x', gplus: 'nope' } } as Channel, defaultStrings);
    assert.equal(rows.some((row) => row.key === 'player-link'), false);
  });

  for (const [value, expected] of [['https://a.example/x', true], ['http://a.example', true], ['javascript:alert(1)', false], ['', false], [undefined, false]] as const) {
    it(`isWebUrl(${JSON.stringify(value)}) is ${expected}`, () => assert.equal(isWebUrl(value), expected));
  }
});
