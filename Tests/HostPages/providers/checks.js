// A tiny harness for host end-to-end pages: each check is reported through the `report`
// module, and the run ends with the verdict (the host exits 0 only when nothing failed).
window.checks = function (body) {
  var passed = 0;
  var failed = 0;
  var results = [];
  function check(name, ok, detail) {
    if (ok) passed++; else failed++;
    results.push({ name: name, ok: !!ok, detail: detail === undefined ? null : String(detail) });
  }
  function finish(bridge) {
    bridge('report', 'finish', { passed: passed, failed: failed, data: results });
  }
  window.addEventListener('load', function () {
    Promise.resolve().then(function () { return body(check); }).then(
      function () { finish(window.PWAKit.call); },
      function (error) { check('no exception', false, error && (error.code || '') + ' ' + error); finish(window.PWAKit.call); });
  });
};
