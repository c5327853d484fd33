// The runtime schemas of the service contract (src/service/schemas.ts), table-driven: samples
// shaped as the seed describes pass, and each seed rule broken fails at the named field.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { z } from 'zod';
import { schemas, UPLOAD_SIGNATURE_FIELDS } from '../../src/service/index.js';

const playlist = {
  id: '1',
  title: 'Summer',
  description: '',
  content: { list: null, start_time: '00:00:00' },
  ads: null,
  company_url: null,
  countdown_date: '',
  countdown_timezone: 'UTC',
  counter_live_limit: -1,
  countries_id: '',
  creation_date: '2026-01-01T00:00:00Z',
  save_date: '2026-01-01T00:00:00Z',
  custom_data: null,
  enable_payperview: false,
  enable_subscription: false,
  external_video_page: '',
  google_analytics: '',
  logo_url: null,
  noframe_security: 0,
  password: '',
  pictures: { splashscreen: null, thumbnail: null },
  player_height: 360,
  player_width: 640,
  player_size_id: 1,
  publish_on_service: false,
  stream_category: 0,
};

const channel = {
  id: '2',
  title: 'Studio',
  description: 'Live',
  ads: null,
  associated_packages: '',
  category_id: 0,
  company_url: null,
  config: {
    publishing_point_primary: 'rtmp://a/live',
    publishing_point_backup: 'rtmp://b/live',
    login: 'l',
    password: 'p',
    stream_name: 's',
    live_transcoding: false,
    publishing_point_type: null,
  },
  countdown_date: null,
  countdown_timezone: null,
  counter_live_limit: -1,
  countries_id: 0,
  creation_date: '2026-01-01T00:00:00Z',
  save_date: '2026-01-01T00:00:00Z',
  custom_data: null,
  enable_coupon: false,
  enable_payperview: false,
  enable_subscription: false,
  external_video_page: '',
  google_analytics: 0,
  hds: 'https://p/hds',
  hls: 'https://p/hls',
  is_secure: 0,
  live_recording_enabled: false,
  noframe_security: 0,
  online: false,
  password: null,
  pictures: { splashscreen: [], thumbnail: [] },
  player_height: 360,
  player_width: 640,
  player_size_id: 1,
  publish_on_service: false,
  referers_id: 0,
  rtmp: null,
  schedule: null,
  share_code: { facebook: 'https://p/f', gplus: 'https://p/g', twitter: 'https://p/t' },
  splashscreen_id: 0,
  thumbnail_id: 0,
  stream_tech: 'rtmp',
  theme_id: '0',
  web_dvr: 0,
};

const signature = Object.fromEntries(UPLOAD_SIGNATURE_FIELDS.map((name) => [name, 'v']));

/** [schema name, schema, valid sample, [invalid sample, path of the failing field][]] */
const table: [string, z.ZodType, unknown, [unknown, string][]][] = [
  ['vodCreateRequest', schemas.vodCreateRequest, { source: 'a.mp4', upload_type: 'ajax', callback_url: 'https://x/cb' }, [
    [{ upload_type: 'ajax', callback_url: 'https://x/cb' }, 'source'],
    [{ source: 'a.mp4', upload_type: 'ajax', callback_url: 'javascript:alert(1)' }, 'callback_url'],
    [{ source: 'a.mp4', callback_url: 'https://x/cb' }, 'upload_type'],
  ]],
  ['uploadSignature', schemas.uploadSignature, signature, [
    [{ ...signature, policy: 1 }, 'policy'],
    [Object.fromEntries(Object.entries(signature).filter(([k]) => k !== 'x-amz-signature')), 'x-amz-signature'],
  ]],
  ['uploadCallbackPayload', schemas.uploadCallbackPayload, { file_id: '9', title: 't' }, [
    [{ file_id: '', title: 't' }, 'file_id'],
    [{ file_id: '9' }, 'title'],
  ]],
  ['playlistCreateRequest', schemas.playlistCreateRequest, { title: 'p', description: '' }, [
    [{ title: '', description: '' }, 'title'],
    [{ title: 'p' }, 'description'],
  ]],
  ['playlistUpdateItem', schemas.playlistUpdateItem, { id: '1', type: 'vod', position: '1' }, [
    [{ id: '1', type: 'playlist', position: '1' }, 'type'],
    [{ id: '1', type: 'channel', position: '0' }, 'position'],
    [{ id: '1', type: 'channel', position: 1 }, 'position'],
    [{ id: '', type: 'vod', position: '1' }, 'id'],
  ]],
  ['playlist', schemas.playlist, playlist, [
    [{ ...playlist, content: { list: [{ id: '1', position: 1, thumbnail_id: '', title: '' }], start_time: '00:00:00' } }, 'content.list.0.position'],
    [{ ...playlist, counter_live_limit: -1.5 }, 'counter_live_limit'],
    [{ ...playlist, pictures: { splashscreen: null } }, 'pictures.thumbnail'],
  ]],
  ['channelCreateRequest', schemas.channelCreateRequest, { title: 'c', description: '', region: 'europe', rendition_count: 5 }, [
    [{ title: 'c', description: '', region: 'africa', rendition_count: 1 }, 'region'],
    [{ title: 'c', description: '', region: 'europe', rendition_count: 6 }, 'rendition_count'],
    [{ title: 'c', description: '', region: 'europe', rendition_count: 0 }, 'rendition_count'],
  ]],
  ['channel', schemas.channel, channel, [
    [{ ...channel, config: { ...channel.config, live_transcoding: 'no' } }, 'config.live_transcoding'],
    [{ ...channel, pictures: { splashscreen: null, thumbnail: [] } }, 'pictures.splashscreen'],
    [{ ...channel, share_code: { facebook: 'f', gplus: 'g' } }, 'share_code.twitter'],
  ]],
  ['embedCodeResponse', schemas.embedCodeResponse, { code: '&lt;script&gt;&lt;/script&gt;' }, [[{}, 'code']]],
];

describe('service schemas', () => {
  for (const [name, schema, valid, invalid] of table) {
    it(`${name}: accepts the seed's shape and names the field of each broken rule`, () => {
      assert.deepEqual(schema.parse(valid), valid);
      for (const [sample, path] of invalid) {
        const result = schema.safeParse(sample);
        assert.equal(result.success, false, `${name} accepted ${JSON.stringify(sample)}`);
        const paths = result.error!.issues.map((issue) => issue.path.join('.'));
        assert.ok(paths.includes(path), `${name}: ${JSON.stringify(paths)} should include ${path}`);
      }
    });
  }
});
