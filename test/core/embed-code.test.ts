import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import he from 'he';
import {
  checkIframeSrc,
  checkScriptSrc,
  isLoopbackHost,
  normalizeOrigin,
  parseEmbedCode,
  type EmbedRejectionReason,
} from '../../src/core/embed-code.js';

const decode = (text: string) => he.decode(text);
const escape = (markup: string) => he.encode(markup, { useNamedReferences: true });

const PLAYER = 'http://127.0.0.1:4100';
const HTTPS_PLAYER = 'https://player.example.com';
const policy = { playerOrigin: PLAYER, iframeOrigins: [PLAYER, HTTPS_PLAYER] };
const ID = 'acc1-vod-v123';

const script = (src = `${PLAYER}/js/player.js?contentId=${ID}`, extra = '') =>
  `<script id="${ID}" width="100%" height="100%" src="${src}" class="svc-video-player"${extra}></script>`;
const iframe = (src = `${PLAYER}/embed/${ID}`, extra = '') =>
  `<div style="position:relative;padding-top:56.25%"><iframe id="${ID}" src="${src}" width="100%" height="100%" ` +
  `style="position:absolute;top:0;left:0;width:100%;height:100%" frameborder="0" ` +
  `allow="autoplay; fullscreen; picture-in-picture" allowfullscreen title="Video: Tom &amp; Jerry"${extra}></iframe></div>`;

describe('parseEmbedCode accepts the contract forms', () => {
  it('accepts the service script code, escaped once, and returns only validated attributes', () => {
    const result = parseEmbedCode(escape(script()), decode, policy);
    assert.deepEqual(result, {
      ok: true,
      embed: {
        tag: 'script',
        src: `${PLAYER}/js/player.js?contentId=${ID}`,
        contentId: ID,
        attributes: { id: ID, width: '100%', height: '100%', class: 'svc-video-player' },
      },
    });
  });

  it('accepts the service iframe code, drops styles and decodes the title as HTML does', () => {
    const result = parseEmbedCode(escape(iframe()), decode, policy);
    assert.ok(result.ok, JSON.stringify(result));
    assert.equal(result.embed.tag, 'iframe');
    assert.equal(result.embed.src, `${PLAYER}/embed/${ID}`);
    assert.deepEqual(result.embed.attributes, {
      id: ID,
      width: '100%',
      height: '100%',
      frameborder: '0',
      allow: 'autoplay; fullscreen; picture-in-picture',
      allowfullscreen: '',
      title: 'Video: Tom & Jerry',
    });
  });

  const accepted: [string, string][] = [
    ['single-quoted and unquoted values', `<script id='${ID}' src=${PLAYER}/js/player.js?contentId=${ID}></script>`],
    ['surrounding and inner white space', `\n  <script  id="${ID}"\n src = "${PLAYER}/js/player.js?contentId=${ID}" ></script >\n`],
    ['another class token', script(undefined).replace('svc-video-player', 'vendor_player')],
    ['a bare iframe', `<iframe src="${PLAYER}/embed/${ID}" title="Video"></iframe>`],
    ['an https iframe origin', `<iframe src="${HTTPS_PLAYER}/embed/${ID}?autoplay=1"></iframe>`],
    ['vendor fullscreen flags', `<iframe src="${PLAYER}/embed/x" webkitallowfullscreen mozallowfullscreen="true"></iframe>`],
    ['iframe extras', `<iframe src="${PLAYER}/embed/x" scrolling="no" loading="lazy" referrerpolicy="origin"></iframe>`],
    ['every vendor fullscreen flag', `<iframe src="${PLAYER}/embed/x" oallowfullscreen msallowfullscreen="msallowfullscreen"></iframe>`],
  ];
  for (const [name, markup] of accepted) {
    it(`accepts ${name}`, () => {
      const result = parseEmbedCode(escape(markup), decode, policy);
      assert.ok(result.ok, JSON.stringify(result));
    });
  }

  // Observed in public clients: iframe codes on a separate iframe origin, /<vod|live|playlist>/<account>/<id>.
  const IFRAME = 'https://iframe.example.net';
  const observed = (src: string) =>
    `<iframe src="${src}" width="640" height="360" frameborder="0" scrolling="no" allow="autoplay" ` +
    'allowfullscreen webkitallowfullscreen mozallowfullscreen oallowfullscreen msallowfullscreen></iframe>';
  const withIframe = { playerOrigin: PLAYER, iframeOrigins: [PLAYER, IFRAME] };

  for (const segment of ['vod', 'live', 'playlist']) {
    it(`accepts the observed iframe code for ${segment} on an iframe origin`, () => {
      const result = parseEmbedCode(escape(observed(`${IFRAME}/${segment}/acc1/123`)), decode, withIframe);
      assert.ok(result.ok, JSON.stringify(result));
      assert.equal(result.embed.src, `${IFRAME}/${segment}/acc1/123`);
      assert.equal(result.embed.contentId, `acc1-${segment}-123`);
      assert.deepEqual(Object.keys(result.embed.attributes).sort(), [
        'allow', 'allowfullscreen', 'frameborder', 'height', 'mozallowfullscreen', 'msallowfullscreen', 'oallowfullscreen', 'scrolling', 'webkitallowfullscreen', 'width',
      ]);
    });
  }

  const lookAlikes: [string, string, EmbedRejectionReason][] = [
    ['an iframe origin not configured', `https://iframe.example.org/vod/acc1/123`, 'url_origin'],
    ['a sub-domain of the iframe origin', `https://evil.iframe.example.net/vod/acc1/123`, 'url_origin'],
    ['the iframe origin as a prefix', `https://iframe.example.net.evil.test/vod/acc1/123`, 'url_origin'],
    ['another port on the iframe host', `https://iframe.example.net:8443/vod/acc1/123`, 'url_origin'],
    ['http on the iframe host', `http://iframe.example.net/vod/acc1/123`, 'url_scheme'],
    ['an unknown segment', `${IFRAME}/video/acc1/123`, 'url_path'],
    ['a segment look-alike', `${IFRAME}/vods/acc1/123`, 'url_path'],
    ['an upper-case segment', `${IFRAME}/VOD/acc1/123`, 'url_path'],
    ['a fourth segment', `${IFRAME}/vod/acc1/123/x`, 'url_path'],
    ['a trailing slash', `${IFRAME}/vod/acc1/123/`, 'url_path'],
    ['two segments', `${IFRAME}/vod/123`, 'url_path'],
    ['an empty account', `${IFRAME}/vod//123`, 'url_path'],
    ['a query on the content path', `${IFRAME}/vod/acc1/123?next=https://evil.test`, 'url_path'],
    ['a fragment on the content path', `${IFRAME}/vod/acc1/123#x`, 'url_path'],
    ['an escaped slash', `${IFRAME}/vod/acc1%2F..%2F/123`, 'url_path'],
    ['a dot segment', `${IFRAME}/vod/./acc1/123`, 'url_invalid'],
    ['a backslash', `${IFRAME}/vod\\acc1/123`, 'url_invalid'],
  ];
  for (const [name, src, reason] of lookAlikes) {
    it(`rejects ${name} (${reason})`, () => {
      const result = parseEmbedCode(escape(observed(src)), decode, withIframe);
      assert.equal(!result.ok && result.reason, reason, JSON.stringify(result));
    });
  }

  it('accepts an https player origin', () => {
    const src = `${HTTPS_PLAYER}/js/player.js?contentId=${ID}`;
    const result = parseEmbedCode(escape(script(src)), decode, { playerOrigin: HTTPS_PLAYER });
    assert.ok(result.ok && result.embed.src === src);
  });
});

describe('parseEmbedCode rejects everything else with a typed reason', () => {
  const foreign = 'http://127.0.0.1:9';
  const cases: [string, unknown, EmbedRejectionReason][] = [
    ['a number', 42, 'not_a_string'],
    ['null', null, 'not_a_string'],
    ['an object', { toString: () => script() }, 'not_a_string'],
    ['the empty string', '', 'empty'],
    ['white space only', ' \n\t ', 'empty'],
    ['a huge code', ' '.repeat(5000) + escape(script()), 'too_long'],
    ['a NUL character', escape(script()).replace('&gt;&lt;/', '&gt;\u0000&lt;/'), 'control_character'],
    ['plain text', 'hello', 'text'],
    ['text after the script', escape(script() + 'x'), 'text'],
    ['inline script text', escape(script().replace('></script>', '>window.__pwned=1</script>')), 'inline_script'],
    ['a double-escaped code', escape(escape(script())), 'entity'],
    ['an entity left in src', escape(script(`${PLAYER}/js/player.js?contentId=${ID}&amp;x=1`)), 'entity'],
    ['a comment', escape('<!-- x -->' + script()), 'comment'],
    ['a comment inside the script', escape(script().replace('></script>', '><!--</script>-->')), 'comment'],
    ['CDATA', escape('<![CDATA[x]]>' + script()), 'declaration'],
    ['a doctype', escape('<!doctype html>' + script()), 'declaration'],
    ['a processing instruction', escape('<?xml version="1.0"?>' + script()), 'declaration'],
    ['an upper-case tag', escape(script().replace('<script', '<SCRIPT')), 'syntax'],
    ['an unclosed tag', escape(`<script id="${ID}" src="${PLAYER}/js/player.js?contentId=${ID}"`), 'syntax'],
    ['an unclosed quote', escape(`<script id="${ID} src="x></script>`), 'syntax'],
    ['attributes without white space', escape(script().replace('" src=', '"src=')), 'syntax'],
    ['a self-closing script', escape(`<script id="${ID}" src="${PLAYER}/js/player.js?contentId=${ID}"/>`), 'syntax'],
    ['an upper-case attribute', escape(script().replace(' src=', ' SRC=')), 'syntax'],
    ['an attribute on an end tag', escape(script().replace('</script>', '</script x>')), 'syntax'],
    ['a quote in an unquoted value', escape(`<iframe src=${PLAYER}/embed/a"b></iframe>`), 'syntax'],
    ['a stray <', escape('< ' + script()), 'text'],
    ['an img with onerror', escape('<img src=x onerror="window.__pwned=1">'), 'element_not_allowed'],
    ['an svg', escape('<svg onload="window.__pwned=1"></svg>'), 'element_not_allowed'],
    ['svg script', escape(`<svg><script href="data:,window.__pwned=1"></script></svg>`), 'element_not_allowed'],
    ['a tag broken by another', escape(`<scr<script>ipt src=x></script>`), 'syntax'],
    ['MathML', escape('<math><mtext><script>1</script></mtext></math>'), 'element_not_allowed'],
    ['an object', escape('<object data="javascript:1"></object>'), 'element_not_allowed'],
    ['a prototype name as a tag', escape('<constructor></constructor>'), 'element_not_allowed'],
    ['a script before the iframe', escape(script() + iframe()), 'structure'],
    ['two scripts', escape(script() + script()), 'structure'],
    ['a script inside the div', escape(`<div>${script()}</div>`), 'structure'],
    ['a div inside the div', escape(`<div>${iframe()}</div>`), 'structure'],
    ['a missing end tag', escape(script().replace('</script>', '')), 'structure'],
    ['an iframe nested in an iframe', escape(`<iframe src="${PLAYER}/embed/a"><iframe src="${PLAYER}/embed/b"></iframe></iframe>`), 'structure'],
    ['an event handler on the script', escape(script(undefined, ' onload="window.__pwned=1"')), 'attribute_not_allowed'],
    ['an event handler on the iframe', escape(iframe(undefined, ' onload="window.__pwned=1"')), 'attribute_not_allowed'],
    ['an event handler on the div', escape(iframe().replace('<div ', '<div onclick="x" ')), 'attribute_not_allowed'],
    ['srcdoc', escape(iframe(undefined, ' srcdoc="&lt;script&gt;1&lt;/script&gt;"')), 'attribute_not_allowed'],
    ['a type on the script', escape(script(undefined, ' type="module"')), 'attribute_not_allowed'],
    ['sandbox', escape(iframe(undefined, ' sandbox')), 'attribute_not_allowed'],
    ['__proto__ as an attribute', escape(script(undefined, ' constructor')), 'attribute_not_allowed'],
    ['a duplicate src', escape(script(undefined, ` src="${foreign}/js/player.js?contentId=${ID}"`)), 'attribute_duplicate'],
    ['two class tokens', escape(script().replace('svc-video-player', 'a b')), 'attribute_value'],
    ['a bad width', escape(script().replace('width="100%"', 'width="expression(1)"')), 'attribute_value'],
    ['a bad allow feature', escape(iframe().replace('autoplay;', 'camera; microphone;')), 'attribute_value'],
    ['markup in a value', escape(iframe().replace('title="Video: Tom &amp; Jerry"', 'title="<b>"')), 'attribute_value'],
    ['a bad id', escape(script().replace(`id="${ID}"`, 'id="a b"')), 'attribute_value'],
    ['no src', escape(`<script id="${ID}"></script>`), 'attribute_missing'],
    ['no id', escape(`<script src="${PLAYER}/js/player.js?contentId=${ID}"></script>`), 'attribute_missing'],
    ['a javascript: src', escape(script('javascript:window.__pwned=1')), 'url_scheme'],
    ['a data: src', escape(script('data:text/javascript,window.__pwned=1')), 'url_scheme'],
    ['a data: iframe', escape(iframe('data:text/html,x')), 'url_scheme'],
    ['a protocol-relative src', escape(script(`//127.0.0.1:4100/js/player.js?contentId=${ID}`)), 'url_invalid'],
    ['a relative src', escape(script(`/js/player.js?contentId=${ID}`)), 'url_invalid'],
    ['backslashes', escape(script(`http:\\\\127.0.0.1:4100\\js\\player.js?contentId=${ID}`)), 'url_invalid'],
    ['a backslash in the path', escape(script(`${PLAYER}\\js/player.js?contentId=${ID}`)), 'url_invalid'],
    ['a dot segment', escape(script(`${PLAYER}/x/../js/player.js?contentId=${ID}`)), 'url_invalid'],
    ['an upper-case scheme', escape(script(`HTTP://127.0.0.1:4100/js/player.js?contentId=${ID}`)), 'url_invalid'],
    ['userinfo look-alike', escape(script(`${PLAYER}@evil.test/js/player.js?contentId=${ID}`)), 'url_userinfo'],
    ['userinfo on the iframe', escape(iframe(`http://user@127.0.0.1:4100/embed/${ID}`)), 'url_userinfo'],
    ['another port', escape(script(`${foreign}/js/player.js?contentId=${ID}`)), 'url_origin'],
    ['another loopback host', escape(script(`http://127.0.0.2:4100/js/player.js?contentId=${ID}`)), 'url_origin'],
    ['a punycode host', escape(script(`https://xn--plyer-gra.example.com/js/player.js?contentId=${ID}`)), 'url_origin'],
    ['a unicode look-alike', escape(script(`https://plàyer.example.com/js/player.js?contentId=${ID}`)), 'url_origin'],
    ['a suffix look-alike', escape(script(`http://127.0.0.1.evil.test:4100/js/player.js?contentId=${ID}`)), 'url_scheme'],
    ['plain http off loopback', escape(iframe(`http://player.example.com/embed/${ID}`)), 'url_scheme'],
    ['a foreign iframe', escape(iframe(`https://evil.test/embed/${ID}`)), 'url_origin'],
    ['another script path', escape(script(`${PLAYER}/js/evil.js?contentId=${ID}`)), 'url_path'],
    ['an iframe off /embed/', escape(iframe(`${PLAYER}/other/${ID}`)), 'url_path'],
    ['an extra query parameter', escape(script(`${PLAYER}/js/player.js?contentId=${ID}&callback=x`)), 'url_query'],
    ['a fragment', escape(script(`${PLAYER}/js/player.js?contentId=${ID}#x`)), 'url_query'],
    ['no query', escape(script(`${PLAYER}/js/player.js`)), 'url_query'],
    ['a contentId differing from id', escape(script(`${PLAYER}/js/player.js?contentId=acc1-vod-other`)), 'id_mismatch'],
  ];
  for (const [name, code, reason] of cases) {
    it(`rejects ${name} (${reason})`, () => {
      const result = parseEmbedCode(code, decode, policy);
      assert.equal(result.ok, false, JSON.stringify(result));
      assert.equal(!result.ok && result.reason, reason);
    });
  }

  it('rejects everything without a usable policy', () => {
    for (const playerOrigin of [undefined, '', 'not a url', 'http://player.example.com', 'ftp://127.0.0.1']) {
      const result = parseEmbedCode(escape(script()), decode, { playerOrigin });
      assert.equal(!result.ok && result.reason, 'no_policy', String(playerOrigin));
    }
    const framed = parseEmbedCode(escape(iframe()), decode, { playerOrigin: PLAYER });
    assert.equal(!framed.ok && framed.reason, 'no_policy');
  });

  it('decodes exactly once', () => {
    let calls = 0;
    const counting = (text: string) => (calls++, decode(text));
    assert.ok(parseEmbedCode(escape(script()), counting, policy).ok);
    assert.equal(calls, 1);
  });
});

describe('URL helpers', () => {
  it('recognises loopback hosts only', () => {
    for (const host of ['localhost', '127.0.0.1', '127.1.2.3', '[::1]']) assert.ok(isLoopbackHost(host), host);
    for (const host of ['127.0.0.1.evil.test', 'localhost.evil.test', '10.0.0.1', '[::2]']) assert.ok(!isLoopbackHost(host), host);
  });

  it('normalises usable origins', () => {
    assert.equal(normalizeOrigin('https://player.example.com/some/path'), 'https://player.example.com');
    assert.equal(normalizeOrigin('https://player.example.com:443'), 'https://player.example.com');
    assert.equal(normalizeOrigin('http://localhost:8080'), 'http://localhost:8080');
    assert.equal(normalizeOrigin('http://player.example.com'), null);
    assert.equal(normalizeOrigin('https://u:p@player.example.com'), null);
    assert.equal(normalizeOrigin(42), null);
  });

  it('re-checks script URLs for the Trusted Types policy', () => {
    assert.deepEqual(checkScriptSrc(`${PLAYER}/js/player.js?contentId=${ID}`, PLAYER), { ok: true, contentId: ID });
    assert.equal(checkScriptSrc(`${PLAYER}/js/player.js?contentId=${ID}`, HTTPS_PLAYER).ok, false);
    assert.equal(checkScriptSrc('data:,1', PLAYER).ok, false);
    assert.deepEqual(checkIframeSrc(`${PLAYER}/embed/${ID}`, [PLAYER]), { ok: true });
    assert.equal(checkIframeSrc(`${PLAYER}/embed/`, [PLAYER]).ok, false);
  });
});
