/*
 * The launcher's page (app://launcher/): renders the `launcher` module's snapshot and sends
 * what the person does back to it. Plain JavaScript; the host injects the PWAKit SDK.
 */
'use strict';

(function () {
  const $ = (id) => document.getElementById(id);
  let state = null;

  function call(action, payload) {
    return PWAKit.call('launcher', action, payload, { timeoutMs: 600000 }).then(render, (error) => {
      showOutcome(error.message || String(error), true);
    });
  }

  function bytes(count) {
    if (!count) return '0 KB';
    if (count < 1024 * 1024) return Math.max(1, Math.round(count / 1024)) + ' KB';
    return (count / (1024 * 1024)).toFixed(1) + ' MB';
  }

  function hue(text) {
    let h = 0;
    for (const c of text) h = (h * 31 + c.codePointAt(0)) % 360;
    return h;
  }

  function icon(app) {
    const fallback = document.createElement('span');
    fallback.className = 'icon';
    fallback.style.background = 'hsl(' + hue(app.id) + ' 62% 52%)';
    fallback.textContent = (app.name || app.id).trim().charAt(0).toUpperCase();
    fallback.setAttribute('aria-hidden', 'true');
    if (!/^(https:|data:image\/)/.test(app.icon || '')) return fallback;
    const image = document.createElement('img');
    image.className = 'icon';
    image.alt = '';
    image.src = app.icon;
    image.addEventListener('error', () => image.replaceWith(fallback));
    return image;
  }

  function showOutcome(text, isError) {
    const banner = $('outcome');
    banner.textContent = text;
    banner.classList.toggle('warn', !!isError);
    banner.hidden = !text;
  }

  function fieldErrors(form, problems) {
    for (const element of form.querySelectorAll('.field-error')) {
      const problem = problems.find((p) => p.field === element.dataset.field);
      element.textContent = problem ? problem.message : '';
    }
  }

  function tile(app) {
    const item = document.createElement('li');
    item.dataset.app = app.id;
    const button = document.createElement('button');
    button.className = 'tile';
    button.id = 'app-' + app.id;
    button.setAttribute('aria-label', 'Open ' + app.name);
    button.append(icon(app));
    const text = document.createElement('span');
    const name = document.createElement('span');
    name.className = 'name';
    name.textContent = app.name;
    const desc = document.createElement('span');
    desc.className = 'desc';
    desc.textContent = app.description;
    const meta = document.createElement('span');
    meta.className = 'meta';
    meta.textContent = app.installedVersion
      ? 'Version ' + app.installedVersion + ' · ' + bytes(app.bytes)
      : 'Not installed · opens after download';
    text.append(name, desc, meta);
    button.append(text);
    button.addEventListener('click', () => call('open', { appId: app.id }));
    const actions = document.createElement('div');
    actions.className = 'actions';
    if (app.progress) {
      const progress = document.createElement('progress');
      progress.id = 'progress-' + app.id;
      if (app.progress.bytesTotal > 0) {
        progress.max = app.progress.bytesTotal;
        progress.value = app.progress.bytesDone;
      }
      actions.append(progress);
    } else if (app.pendingVersion) {
      const badge = document.createElement('span');
      badge.className = 'badge ready';
      badge.id = 'pending-' + app.id;
      badge.textContent = 'Update ' + app.pendingVersion + ' ready · applies when opened';
      actions.append(badge);
    } else if (app.availableVersion) {
      const update = document.createElement('button');
      update.className = 'badge';
      update.id = 'update-' + app.id;
      update.textContent = 'Update to ' + app.availableVersion;
      update.addEventListener('click', () => call('install', { appId: app.id }));
      actions.append(update);
    } else if (!app.installedVersion) {
      const install = document.createElement('button');
      install.id = 'install-' + app.id;
      install.textContent = 'Install';
      install.addEventListener('click', () => call('install', { appId: app.id }));
      actions.append(install);
    }
    if (app.rolledBack > 0) {
      const note = document.createElement('span');
      note.className = 'muted';
      note.textContent = app.rolledBack === 1 ? '1 release rolled back' : app.rolledBack + ' releases rolled back';
      actions.append(note);
    }
    if (app.failure) {
      const failure = document.createElement('span');
      failure.className = 'error';
      failure.textContent = app.failure;
      actions.append(failure);
    }
    item.append(button, actions);
    return item;
  }

  function renderGrid(catalog) {
    const grid = $('grid');
    const focused = document.activeElement && document.activeElement.id;
    grid.replaceChildren(...catalog.apps.map(tile));
    if (focused && $(focused)) $(focused).focus();
    $('grid-empty').hidden = !(catalog.status === 'apps' && catalog.apps.length === 0);
    $('grid-failed').hidden = catalog.status !== 'failed';
    $('grid-failed').textContent = catalog.error || '';
    $('offline').hidden = !catalog.offline;
    $('refresh').disabled = catalog.refreshing;
    $('refresh').textContent = catalog.refreshing ? 'Refreshing…' : 'Refresh';
  }

  function renderSettings(snapshot) {
    const user = snapshot.user;
    $('settings-name').textContent = user ? user.displayName : '';
    $('settings-email').textContent = user ? user.email : '';
    $('settings-total').textContent = '· ' + bytes(snapshot.storage.totalBytes) + ' in all';
    const list = $('settings-apps');
    list.replaceChildren(
      ...snapshot.catalog.apps.map((app) => {
        const item = document.createElement('li');
        const label = document.createElement('span');
        label.className = 'spacer';
        label.textContent = app.name + ' — ' + (app.installedVersion ? bytes(app.bytes) : 'not installed');
        item.append(label);
        if (app.channels.length > 1) {
          const select = document.createElement('select');
          select.setAttribute('aria-label', 'Channel of ' + app.name);
          for (const channel of app.channels) select.add(new Option(channel, channel, false, channel === app.channel));
          select.addEventListener('change', () => call('setChannel', { appId: app.id, channel: select.value }));
          item.append(select);
        }
        const clear = document.createElement('button');
        clear.textContent = 'Clear';
        clear.id = 'clear-' + app.id;
        clear.disabled = !app.installedVersion;
        clear.addEventListener('click', () => call('clear', { appId: app.id }));
        item.append(clear);
        return item;
      })
    );
  }

  function renderRunning(running) {
    const opening = $('opening');
    if (running && !running.shown && (running.state === 'installing' || running.state === 'loading')) {
      opening.hidden = false;
      $('opening-text').textContent = (running.state === 'installing' ? 'Downloading ' : 'Opening ') + running.name + '…';
      const progress = $('opening-progress');
      progress.hidden = !(running.progress && running.progress.bytesTotal > 0);
      if (!progress.hidden) {
        progress.max = running.progress.bytesTotal;
        progress.value = running.progress.bytesDone;
      }
    } else {
      opening.hidden = true;
    }
    if (running && running.state === 'rolledBack') {
      showOutcome(
        running.name + ' ' + running.version + ' did not start and was rolled back; the previous version opens next time. (' + running.reason + ')',
        true
      );
    } else if (running && running.state === 'failed') {
      showOutcome(running.name + ' could not be opened: ' + running.reason, true);
    } else if (running) {
      showOutcome('', false);
    }
  }

  const sensorNames = { faceID: 'Face ID', touchID: 'Touch ID', opticID: 'Optic ID' };

  function renderUnlock(snapshot) {
    const unlock = snapshot.unlock;
    const sensor = sensorNames[unlock.biometryType] || 'biometrics';
    $('unlock').textContent = 'Unlock with ' + sensor;
    $('unlock').hidden = !unlock.enabled;
    $('locked-name').textContent = snapshot.user ? ', ' + (snapshot.user.displayName || snapshot.user.email) : '';
    for (const id of ['unlock-error', 'biometric-error']) {
      $(id).hidden = !unlock.error;
      $(id).textContent = unlock.error || '';
    }
    $('biometric-label').textContent = 'Unlock with ' + sensor;
    const toggle = $('biometric-toggle');
    toggle.checked = unlock.enabled;
    toggle.disabled = !unlock.available && !unlock.enabled;
    $('biometric-note').textContent = unlock.available
      ? 'Your session is released only after ' + sensor + ' succeeds; asked again when the app comes back after a while.'
      : 'This device offers no biometrics.';
    if (unlock.enabled) $('biometric-off').hidden = true;
  }

  function render(snapshot) {
    if (!snapshot) return;
    state = snapshot;
    for (const id of ['starting', 'login', 'launcher', 'locked']) $(id).hidden = snapshot.route !== id;
    document.title = snapshot.route === 'launcher' ? 'PWAKit — Your apps' : 'PWAKit';
    $('server').textContent = snapshot.server;
    const notice = $('login-notice');
    notice.hidden = !snapshot.notice;
    notice.textContent = snapshot.notice || '';
    const registering = $('register').open;
    const form = registering ? $('register-form') : $('login-form');
    fieldErrors(form, snapshot.signIn.fieldErrors);
    const error = registering ? $('register-error') : $('login-error');
    error.hidden = !snapshot.signIn.error;
    error.textContent = snapshot.signIn.error || '';
    for (const button of document.querySelectorAll('form .primary')) button.disabled = snapshot.signIn.isSubmitting;
    renderUnlock(snapshot);
    if (snapshot.route === 'launcher') {
      if (registering) $('register').close();
      const user = snapshot.user;
      $('avatar').textContent = user ? (user.displayName || user.email).charAt(0).toUpperCase() : '';
      $('user-name').textContent = user ? user.displayName || user.email : '';
      renderGrid(snapshot.catalog);
      renderSettings(snapshot);
      renderRunning(snapshot.running);
      if (!sharesShown) {
        sharesShown = true;
        loadShares();
      }
    } else {
      sharesShown = false;
      if ($('settings').open) $('settings').close();
    }
  }

  $('login-form').addEventListener('submit', (event) => {
    event.preventDefault();
    call('signIn', { email: $('email').value, password: $('password').value }).then(() => {
      if (state && state.route === 'launcher') $('password').value = '';
    });
  });
  $('show-register').addEventListener('click', () => {
    fieldErrors($('register-form'), []);
    $('register-error').hidden = true;
    $('register').showModal();
  });
  $('register-cancel').addEventListener('click', () => $('register').close());
  $('register-form').addEventListener('submit', (event) => {
    event.preventDefault();
    call('register', {
      email: $('register-email').value,
      password: $('register-password').value,
      confirmation: $('register-confirmation').value,
      displayName: $('register-name').value,
    });
  });
  $('unlock').addEventListener('click', () => call('unlock'));
  $('unlock-form').addEventListener('submit', (event) => {
    event.preventDefault();
    call('unlockWithPassword', { password: $('unlock-password').value }).then(() => {
      $('unlock-password').value = '';
    });
  });
  $('biometric-toggle').addEventListener('change', () => {
    if ($('biometric-toggle').checked) {
      call('setBiometricUnlock', { enabled: true });
    } else {
      // Turning it off needs the password.
      $('biometric-toggle').checked = true;
      $('biometric-off').hidden = false;
      $('biometric-password').focus();
    }
  });
  $('biometric-disable').addEventListener('click', () => {
    call('setBiometricUnlock', { enabled: false, password: $('biometric-password').value }).then(() => {
      $('biometric-password').value = '';
    });
  });
  $('refresh').addEventListener('click', () => {
    call('refresh');
    sharesPolls = 0;
    loadShares();
  });
  $('open-settings').addEventListener('click', () => $('settings').showModal());
  $('settings-close').addEventListener('click', () => $('settings').close());
  $('sign-out').addEventListener('click', () => {
    $('settings').close();
    call('signOut');
  });
  document.addEventListener('keydown', (event) => {
    const typing = /^(INPUT|SELECT|TEXTAREA)$/.test((event.target && event.target.tagName) || '');
    if (!typing && !event.ctrlKey && !event.metaKey && !event.altKey && event.key === 'r' && state && state.route === 'launcher') {
      call('refresh');
    }
  });

  // Shared links: the `posts` module (the outbox, then the server's posts and their status).
  let sharesShown = false;
  let sharesTimer = null;
  let sharesPolls = 0;

  function renderShares(page) {
    const list = $('shares');
    list.replaceChildren();
    for (const post of page.posts) {
      const item = document.createElement('li');
      item.dataset.post = post.id;
      const title = document.createElement('span');
      title.className = 'title';
      title.textContent = post.title || post.url;
      title.title = post.status === 'failed' ? post.lastError || '' : post.description || post.url;
      const site = document.createElement('span');
      site.className = 'muted small';
      site.textContent = post.siteName || '';
      const status = document.createElement('span');
      status.className = 'status ' + post.status;
      status.textContent = post.status;
      item.append(title, site, status);
      list.append(item);
    }
    $('shares-empty').hidden = page.posts.length > 0;
    // Follow pending posts until the server has read their pages (at most two minutes).
    clearTimeout(sharesTimer);
    if (page.posts.some((post) => post.status === 'pending') && sharesPolls < 60) {
      sharesPolls += 1;
      sharesTimer = setTimeout(loadShares, 2000);
    }
  }

  function loadShares() {
    return PWAKit.call('posts', 'list', { limit: 20 })
      .then(renderShares, (error) => {
        $('share-error').textContent = error.message || String(error);
      })
      .then(() => PWAKit.call('posts', 'pending'))
      .then((pending) => {
        const waiting = $('shares-waiting');
        const count = pending ? pending.waiting.length : 0;
        waiting.hidden = count === 0;
        waiting.textContent = count === 1 ? '1 share waits to be sent.' : count + ' shares wait to be sent.';
      }, () => {});
  }

  $('share-form').addEventListener('submit', (event) => {
    event.preventDefault();
    $('share-error').textContent = '';
    const note = $('share-note').value.trim();
    PWAKit.call('posts', 'share', note ? { url: $('share-url').value.trim(), note } : { url: $('share-url').value.trim() }).then(
      (result) => {
        $('share-url').value = '';
        $('share-note').value = '';
        if (result.state === 'kept') showOutcome('Kept for later: ' + (result.reason || 'the server cannot be reached'), true);
        sharesPolls = 0;
        return loadShares();
      },
      (error) => {
        $('share-error').textContent = error.message || String(error);
      },
    );
  });

  PWAKit.on('launcher.state', render);
  call('getState').then(() => {
    if (state && state.route !== 'starting') PWAKit.ready().catch(() => {});
    else PWAKit.once('launcher.state', () => PWAKit.ready().catch(() => {}));
  });
})();
