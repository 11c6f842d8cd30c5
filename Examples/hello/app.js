// Hello PWAKit: shows what the host offers and lets you try a few bridge calls.
// The host injects the SDK as window.PWAKit; without it (an ordinary browser)
// the page says so and keeps working as a plain web page.
(function () {
  'use strict';

  var sdk = window.PWAKit;
  var native = Boolean(sdk && sdk.isNative);
  var MAX_LOG = 12;

  function $(id) {
    return document.getElementById(id);
  }

  function clear(node) {
    while (node.firstChild) node.removeChild(node.firstChild);
  }

  function formatValue(value) {
    if (value === null || value === undefined) return '—';
    if (typeof value === 'boolean') return value ? 'yes' : 'no';
    if (Array.isArray(value)) return value.length ? value.map(formatValue).join(', ') : 'none';
    if (typeof value === 'object') {
      // A map of names to kinds (platform.getInfo's providers) reads best grouped by kind.
      var keys = Object.keys(value).sort();
      if (keys.every(function (key) { return typeof value[key] === 'string'; })) {
        var groups = {};
        keys.forEach(function (key) { (groups[value[key]] = groups[value[key]] || []).push(key); });
        return Object.keys(groups).sort().map(function (kind) { return kind + ': ' + groups[kind].join(', '); }).join(' · ');
      }
      return keys.map(function (key) { return key + ': ' + formatValue(value[key]); }).join(', ');
    }
    return String(value);
  }

  var LABELS = {
    platform: 'Platform',
    osVersion: 'OS version',
    isNative: 'Native',
    appVersion: 'App version',
    appBuild: 'App build',
    deviceModel: 'Device model',
    deviceName: 'Device name',
    pwakitVersion: 'PWAKit version',
    simulated: 'Simulated features'
  };

  function humanKey(key) {
    if (Object.prototype.hasOwnProperty.call(LABELS, key)) return LABELS[key];
    var spaced = key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
    return spaced.charAt(0).toUpperCase() + spaced.slice(1);
  }

  function fillFacts(list, entries) {
    clear(list);
    entries.forEach(function (entry) {
      var term = document.createElement('dt');
      term.textContent = entry[0];
      var value = document.createElement('dd');
      value.textContent = formatValue(entry[1]);
      list.appendChild(term);
      list.appendChild(value);
    });
  }

  function setStatus(text, kind) {
    var badge = $('status');
    badge.textContent = text;
    badge.className = 'badge badge--' + kind;
  }

  function log(kind, title, text) {
    var list = $('log');
    var item = document.createElement('li');
    item.className = 'log__item log__item--' + kind;
    var time = document.createElement('time');
    var now = new Date();
    time.dateTime = now.toISOString();
    time.textContent = now.toLocaleTimeString();
    var heading = document.createElement('strong');
    heading.textContent = title;
    var body = document.createElement('span');
    body.textContent = text;
    item.appendChild(time);
    item.appendChild(heading);
    item.appendChild(body);
    list.insertBefore(item, list.firstChild);
    while (list.children.length > MAX_LOG) list.removeChild(list.lastChild);
  }

  function describeError(error) {
    if (error && typeof error.code === 'string') {
      var path = error.details && typeof error.details.path === 'string' ? ' (at ' + error.details.path + ')' : '';
      return error.code + ': ' + error.message + path;
    }
    return String(error && error.message ? error.message : error);
  }

  function run(label, module, action, payload) {
    return sdk.call(module, action, payload, { timeout: 10000 }).then(function (data) {
      log('ok', label, data === undefined ? 'done' : formatValue(data));
      return data;
    }, function (error) {
      log('error', label, describeError(error));
    });
  }

  function showProtocol() {
    var protocol = sdk ? sdk.protocol : null;
    if (!protocol) {
      fillFacts($('protocol-info'), [['Handshake', native ? 'not provided by this host' : 'none (no host)']]);
      return;
    }
    fillFacts($('protocol-info'), [
      ['Version', protocol.version],
      ['Capabilities', protocol.capabilities],
      ['Schema hash', protocol.schemaHash]
    ]);
  }

  function showDevice() {
    var note = $('device-note');
    if (!native) {
      note.textContent = 'Not running in PWAKit: open this app in a PWAKit host to reach native features.';
      fillFacts($('device-info'), [
        ['Browser', navigator.userAgent],
        ['Online', navigator.onLine]
      ]);
      return Promise.resolve();
    }
    return sdk.call('platform', 'getInfo', undefined, { timeout: 5000 }).then(function (info) {
      note.textContent = 'Reported by the host through platform.getInfo.';
      var entries = [];
      if (info && typeof info === 'object') {
        Object.keys(info).forEach(function (key) { entries.push([humanKey(key), info[key]]); });
      } else {
        entries.push(['Result', info]);
      }
      fillFacts($('device-info'), entries);
    }, function (error) {
      note.textContent = 'platform.getInfo failed.';
      fillFacts($('device-info'), [['Error', describeError(error)]]);
      log('error', 'platform.getInfo', describeError(error));
    });
  }

  function wireControls() {
    var buttons = document.querySelectorAll('.native-only');
    Array.prototype.forEach.call(buttons, function (button) {
      button.disabled = !native;
      if (!native) button.title = 'Needs a PWAKit host';
    });
    Array.prototype.forEach.call(document.querySelectorAll('[data-impact]'), function (button) {
      button.addEventListener('click', function () {
        var style = button.getAttribute('data-impact');
        run('haptics.impact (' + style + ')', 'haptics', 'impact', { style: style });
      });
    });
    $('clipboard-form').addEventListener('submit', function (event) {
      event.preventDefault();
      if (!native) return;
      var text = $('clipboard-text').value;
      run('clipboard.write', 'clipboard', 'write', { text: text });
    });
    $('unknown-module').addEventListener('click', function () {
      run('nosuch.thing', 'nosuch', 'thing');
    });
  }

  function listenForEvents() {
    window.addEventListener('pwa:push', function (event) {
      var push = event.detail || {};
      var title = push.title || push.type || 'push';
      log('event', 'Push: ' + title, push.body ? String(push.body) : formatValue(push));
    });
    window.addEventListener('pwa:bridge.error', function (event) {
      log('error', 'Bridge error', describeError(event.detail && {
        code: event.detail.code, message: event.detail.error, details: event.detail.details
      }));
    });
  }

  function markReady() {
    var done = false;
    function ready() {
      if (done) return;
      done = true;
      document.documentElement.dataset.ready = 'true';
      if (native) sdk.ready().catch(function (error) { log('error', 'ready', describeError(error)); });
    }
    // Two frames: the first schedules layout, the second runs after it painted.
    if (typeof window.requestAnimationFrame === 'function') {
      window.requestAnimationFrame(function () { window.requestAnimationFrame(ready); });
    }
    window.setTimeout(ready, 500);
  }

  function start() {
    setStatus(native ? 'Running in PWAKit' : 'Not running in PWAKit', native ? 'native' : 'web');
    document.documentElement.dataset.native = String(native);
    showProtocol();
    wireControls();
    listenForEvents();
    log('info', 'Started', native ? 'Bridge found; SDK ' + sdk.version : 'No PWAKit bridge on this page');
    showDevice().then(markReady, markReady);
  }

  if (document.readyState === 'loading') {
    document.addEventListener('DOMContentLoaded', start);
  } else {
    start();
  }
})();
