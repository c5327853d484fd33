/* global document, fetch, window */
// The local service's player. It finds its own <script> element, asks the player origin what the
// contentId is, and puts the player right after the script: a <video> for a VOD, a <video> with
// previous/next for a playlist, an "offline" notice for a channel.
// It must run on pages with a strict CSP and Trusted Types (require-trusted-types-for 'script'),
// so the DOM is built only with createElement, textContent, setAttribute and style properties:
// no HTML strings, no eval, no inline handlers, no string timers.
(function () {
  'use strict';

  var STATE = 'data-svc-player';
  var SELECTOR = 'script[src*="/js/player.js?contentId="]';

  function ownScript() {
    var current = document.currentScript;
    if (current && current.matches(SELECTOR) && !current.hasAttribute(STATE)) return current;
    // currentScript is null for some insertions; take the first script not yet handled.
    var scripts = document.querySelectorAll(SELECTOR);
    for (var i = 0; i < scripts.length; i++) {
      if (!scripts[i].hasAttribute(STATE)) return scripts[i];
    }
    return null;
  }

  function element(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  /** "100%" stays as is, "640" becomes "640px"; anything else is ignored. */
  function cssLength(value) {
    if (!value) return '';
    if (/^\d+(\.\d+)?$/.test(value)) return value + 'px';
    if (/^\d+(\.\d+)?(%|px|em|rem|vh|vw)$/.test(value)) return value;
    return '';
  }

  function video(title) {
    var node = element('video', 'svc-video-player-video');
    node.controls = true;
    node.playsInline = true;
    node.preload = 'metadata';
    node.setAttribute('controls', '');
    node.setAttribute('playsinline', '');
    node.setAttribute('aria-label', title);
    node.style.display = 'block';
    node.style.width = '100%';
    node.style.height = '100%';
    node.style.background = '#000';
    return node;
  }

  function notice(text, role) {
    var node = element('div', 'svc-video-player-notice', text);
    node.setAttribute('role', role);
    node.style.display = 'flex';
    node.style.alignItems = 'center';
    node.style.justifyContent = 'center';
    node.style.minHeight = '8rem';
    node.style.height = '100%';
    node.style.background = '#111';
    node.style.color = '#fff';
    node.style.font = '16px/1.4 system-ui, sans-serif';
    return node;
  }

  /**
   * Reports the video's ratio once known: on the box (`data-aspect-ratio`, for the page) and, in
   * the iframe player, to the embedding page (a `svc-player-aspect-ratio` message).
   */
  function reportRatio(box, player) {
    player.addEventListener('loadedmetadata', function () {
      if (!player.videoWidth || !player.videoHeight) return;
      box.setAttribute('data-aspect-ratio', player.videoWidth + '/' + player.videoHeight);
      if (window.parent !== window) {
        window.parent.postMessage({ type: 'svc-player-aspect-ratio', width: player.videoWidth, height: player.videoHeight }, '*');
      }
    });
  }

  function renderVod(box, content) {
    var player = video(content.title);
    reportRatio(box, player);
    player.src = content.media_url;
    box.appendChild(player);
  }

  function renderChannel(box, content) {
    var offline = notice(content.title + ' is offline', 'status');
    offline.classList.add('svc-video-player-offline');
    box.appendChild(offline);
  }

  function renderPlaylist(box, content) {
    var items = content.items;
    if (!items.length) {
      box.appendChild(notice('This playlist is empty.', 'status'));
      return;
    }
    // The video takes what the bar leaves of the box, so both stay inside it.
    box.style.display = 'flex';
    box.style.flexDirection = 'column';
    var stage = element('div', 'svc-video-player-stage');
    stage.style.flex = '1 1 auto';
    stage.style.minHeight = '0';
    var bar = element('div', 'svc-video-player-bar');
    bar.style.flex = 'none';
    bar.style.display = 'flex';
    bar.style.gap = '0.5rem';
    bar.style.alignItems = 'center';
    bar.style.padding = '0.25rem 0';
    var previous = element('button', 'svc-video-player-previous', 'Previous');
    var next = element('button', 'svc-video-player-next', 'Next');
    previous.type = 'button';
    next.type = 'button';
    var label = element('span', 'svc-video-player-label');
    label.setAttribute('aria-live', 'polite');
    bar.appendChild(previous);
    bar.appendChild(label);
    bar.appendChild(next);
    box.appendChild(stage);
    box.appendChild(bar);
    var index = 0;

    function show(at, autoplay) {
      index = at;
      var item = items[index];
      stage.replaceChildren();
      label.textContent = index + 1 + ' / ' + items.length + ': ' + item.title;
      previous.disabled = index === 0;
      next.disabled = index === items.length - 1;
      box.setAttribute('data-index', String(index));
      if (!item.media_url) {
        stage.appendChild(notice(item.title + ' is offline', 'status'));
        return;
      }
      var player = video(item.title);
      reportRatio(box, player);
      player.src = item.media_url;
      player.addEventListener('ended', function () {
        if (index < items.length - 1) show(index + 1, true);
      });
      stage.appendChild(player);
      if (autoplay) {
        player.play().catch(function () {
          // Autoplay refused by the browser: the controls stay for the viewer to start it.
        });
      }
    }

    previous.addEventListener('click', function () {
      if (index > 0) show(index - 1, false);
    });
    next.addEventListener('click', function () {
      if (index < items.length - 1) show(index + 1, false);
    });
    show(0, false);
  }

  function start(script) {
    script.setAttribute(STATE, 'loading');
    var src = new URL(script.src, document.baseURI);
    var contentId = src.searchParams.get('contentId') || '';
    var box = element('div', 'svc-video-player-box');
    box.setAttribute('data-content-id', contentId);
    box.style.width = cssLength(script.getAttribute('width')) || '100%';
    var height = cssLength(script.getAttribute('height'));
    if (height) box.style.height = height;
    script.parentNode.insertBefore(box, script.nextSibling);

    fetch(src.origin + '/api/content/' + encodeURIComponent(contentId), { credentials: 'omit' })
      .then(function (response) {
        if (!response.ok) throw new Error('HTTP ' + response.status);
        return response.json();
      })
      .then(function (content) {
        if (content.type === 'vod') renderVod(box, content);
        else if (content.type === 'playlist') renderPlaylist(box, content);
        else if (content.type === 'channel') renderChannel(box, content);
        else throw new Error('unknown content type');
        script.setAttribute(STATE, 'ready');
      })
      .catch(function () {
        box.replaceChildren(notice('This content is not available.', 'alert'));
        script.setAttribute(STATE, 'error');
      });
  }

  var script = ownScript();
  if (script) start(script);
})();
