/*
 * The mobile-identity showcase (app://identity/): renders the `identity` module's snapshot and
 * sends what the person does back to it. The left column is the device (the interactors); the
 * right one is another screen: a computer signing in with a QR code, and a website that asks.
 * Plain JavaScript; the host injects the PWAKit SDK.
 */
'use strict';

(function () {
  const $ = (id) => document.getElementById(id);
  let state = null;
  // Calls the person started and still on their way: buttons wait for them, and polls do not
  // render over them.
  let inFlight = 0;
  let actions = 0;
  const polling = new Set();

  function setBusy(delta) {
    inFlight += delta;
    for (const button of document.querySelectorAll('button')) button.disabled = inFlight > 0;
  }

  function call(action, payload) {
    actions += 1;
    setBusy(1);
    return PWAKit.call('identity', action, payload, { timeoutMs: 120000 }).then(render, (error) => {
      showInfo((error && error.message) || String(error));
    }).finally(() => setBusy(-1));
  }

  // One poll of each kind at a time; its answer is dropped when the person acted meanwhile.
  function poll(action) {
    if (polling.has(action) || inFlight > 0) return;
    polling.add(action);
    const started = actions;
    PWAKit.call('identity', action).then((next) => { if (inFlight === 0 && actions === started) render(next); }, () => {})
      .finally(() => polling.delete(action));
  }

  function showInfo(text) {
    $('info').textContent = text || '';
    $('info').hidden = !text;
  }

  const pinTitles = {
    createPin: 'Choose a PIN', validatePin: 'Type your PIN', changePin: 'Change your PIN',
  };
  const intentHints = {
    enrol: 'The PIN never leaves this device; only the server can tell a wrong one.',
    signIn: 'Sign in with the device.', approve: 'Your PIN approves the request.',
    approveSignIn: 'Your PIN lets the other screen in.', changePin: 'First the current PIN.',
    addBiometric: 'Your PIN adds biometric sign-in.',
  };

  function render(snapshot) {
    state = snapshot;
    $('chip-user').textContent = snapshot.userState;
    $('chip-enrolment').textContent = snapshot.enrollmentState;
    $('chip-pinpad').textContent = snapshot.pinPadState;
    $('chip-scanner').textContent = snapshot.scannerState;
    showInfo(snapshot.lastInfoDescription);

    const enrolled = snapshot.enrollmentState !== 'unenrolled';
    const padOpen = snapshot.pinPadState !== 'hidden';
    const signedIn = snapshot.userState === 'authenticated';
    $('register').hidden = enrolled || padOpen;
    $('pinpad').hidden = !padOpen;
    if (padOpen) {
      $('pinpad-title').textContent = pinTitles[snapshot.pinPadState] || 'PIN';
      $('pinpad-hint').textContent = intentHints[snapshot.pinPadIntent] || '';
    } else {
      $('pin').value = '';
    }
    $('home').hidden = !enrolled || padOpen;
    $('magic').hidden = padOpen || signedIn;
    $('magic-awaited').hidden = !snapshot.awaitedLinkEmail;
    $('magic-awaited-email').textContent = snapshot.awaitedLinkEmail || '';

    const user = snapshot.users[0];
    $('home-user').textContent = user ? user.email : '—';
    $('home-device').textContent = snapshot.device.name
      ? snapshot.device.name + ' (' + (snapshot.device.deviceId || '').slice(0, 8) + ')' : '—';
    const authenticators = snapshot.device.authenticators;
    $('home-authenticators').textContent = authenticators.length ? authenticators.join(', ') : '—';
    $('home-attempts').textContent = snapshot.device.pinAttemptsLeft == null ? '—' : String(snapshot.device.pinAttemptsLeft);
    $('home-session').textContent = snapshot.session ? 'as ' + snapshot.session.email : 'no';
    const biometric = authenticators.includes('biometric');
    $('sign-in-pin').hidden = signedIn;
    $('sign-in-biometric').hidden = signedIn || !biometric;
    $('sign-out').hidden = !signedIn;
    $('fetch-profile').hidden = !signedIn;
    $('profile').hidden = !snapshot.profile || !signedIn;
    if (snapshot.profile) {
      $('profile').textContent = 'GET /v1/me → ' + snapshot.profile.displayName + ' <' + snapshot.profile.email + '>';
    }
    $('add-biometric').hidden = biometric;
    $('remove-biometric').hidden = !biometric;
    $('approve-biometric').hidden = !biometric;
    $('scan-approve-biometric').hidden = !biometric;

    const request = snapshot.requests[0];
    $('request').hidden = !request;
    $('no-requests').hidden = !!request;
    if (request) {
      if ($('request').dataset.id !== request.id) $('typed-number').value = '';
      $('request').dataset.id = request.id;
      $('request-message').textContent = request.message + (request.data ? ' — ' + request.data : '');
      $('request-from').textContent = request.appId + ' asks, from ' + request.requesterAddress + ' (' +
        request.requesterAgent + '); expires ' + new Date(request.expiresAt).toLocaleTimeString();
    }

    $('scanner-idle').hidden = snapshot.scannerState !== 'hidden';
    $('scanner-open').hidden = snapshot.scannerState === 'hidden' || !!snapshot.scannedSignIn;
    $('scan-camera').hidden = !snapshot.hasCamera;
    $('scanned').hidden = !snapshot.scannedSignIn;
    if (snapshot.scannedSignIn) {
      $('scanned-origin').textContent = snapshot.scannedSignIn.origin;
      $('scanned-from').textContent = 'The page is at ' + snapshot.scannedSignIn.requesterAddress + ' (' +
        snapshot.scannedSignIn.requesterAgent + ')';
    }

    const website = snapshot.website;
    $('website').hidden = !website;
    $('no-website').hidden = !!website;
    if (website) {
      if (!$('website-email').value && user) $('website-email').value = user.email;
      $('website-request').hidden = website.number == null;
      $('website-number').textContent = website.number == null ? '' : String(website.number);
      $('website-status').textContent = website.status || '';
      $('website-reason').textContent = website.reason ? '(' + website.reason + ')' : '';
      $('website-error').hidden = !website.error;
      $('website-error').textContent = website.error || '';
    }
    const computer = snapshot.computer;
    $('code').hidden = !computer.codeImage;
    if (computer.codeImage && $('code').getAttribute('src') !== computer.codeImage) $('code').src = computer.codeImage;
    $('show-code').hidden = computer.status === 'waiting';
    $('computer-status').hidden = computer.status === 'idle';
    $('computer-status').textContent = computer.status === 'signedIn'
      ? 'The computer is signed in as ' + computer.signedInAs
      : computer.status === 'waiting' ? 'Scan this code with the device' : '';
    $('computer-error').hidden = !computer.error;
    $('computer-error').textContent = computer.error || '';
  }

  function onClick(id, action, payload) {
    $(id).addEventListener('click', (event) => {
      event.preventDefault();
      call(action, typeof payload === 'function' ? payload() : payload);
    });
  }

  $('register').addEventListener('submit', (event) => {
    event.preventDefault();
    call('register', { email: $('email').value.trim(), password: $('password').value, deviceName: $('device-name').value.trim() });
  });
  $('pinpad').addEventListener('submit', (event) => {
    event.preventDefault();
    const pin = $('pin').value;
    $('pin').value = '';
    call('submitPin', { pin });
  });
  for (const key of document.querySelectorAll('[data-key]')) {
    key.addEventListener('click', () => {
      const value = key.dataset.key;
      $('pin').value = value === 'del' ? $('pin').value.slice(0, -1) : $('pin').value + value;
    });
  }
  onClick('pin-cancel', 'cancelPin');
  onClick('sign-in-pin', 'signIn', { authenticator: 'pin' });
  onClick('sign-in-biometric', 'signIn', { authenticator: 'biometric' });
  onClick('sign-out', 'logout');
  onClick('fetch-profile', 'fetchProfile');
  onClick('add-biometric', 'addBiometric');
  onClick('remove-biometric', 'removeBiometric');
  onClick('change-pin', 'changePin');
  onClick('reset', 'reset');
  onClick('refresh-requests', 'refreshRequests');
  const typed = () => Number.parseInt($('typed-number').value, 10);
  onClick('approve-pin', 'approve', () => ({ id: $('request').dataset.id, number: typed(), authenticator: 'pin' }));
  onClick('approve-biometric', 'approve', () => ({ id: $('request').dataset.id, number: typed(), authenticator: 'biometric' }));
  onClick('deny', 'deny', () => ({ id: $('request').dataset.id, notMe: false }));
  onClick('not-me', 'deny', () => ({ id: $('request').dataset.id, notMe: true }));
  onClick('scan', 'startScanning');
  onClick('scan-camera', 'scanWithCamera');
  onClick('scan-use', 'scanned', () => ({ text: $('scan-text').value.trim() }));
  onClick('scan-cancel', 'cancelScan');
  onClick('scan-approve-pin', 'approveScan', { authenticator: 'pin' });
  onClick('scan-approve-biometric', 'approveScan', { authenticator: 'biometric' });
  onClick('scan-deny', 'denyScan');
  onClick('magic-request', 'requestMagicLink', () => ({ email: $('magic-email').value.trim() }));
  onClick('magic-complete', 'completeMagicLink', () => ({ link: $('magic-link').value.trim() }));
  onClick('website-ask', 'websiteAsk', () => ({ email: $('website-email').value.trim(), message: $('website-message').value }));
  onClick('show-code', 'computerShowCode');

  // NB: push is off on Linux: an enrolled device polls for requests, and the website for its answer.
  setInterval(() => {
    if (!state) return;
    if (state.enrollmentState !== 'unenrolled' && state.pinPadState === 'hidden') poll('pollRequests');
    if (state.computer.status === 'waiting') poll('computerRefresh');
    if (state.website && state.website.status === 'pending') poll('websiteRefresh');
  }, 2500);

  call('start');
})();
