/// The sign-in page a browser opens to sign in with an enrolled device (`GET /v1/identity/qr`), and
/// its script (`GET /v1/identity/qr/page.js`).
///
/// The script makes a non-extractable P-256 key with WebCrypto, asks for a code bound to the hash of
/// its public key, shows it, and redeems it with a signature only that key can make, waiting for the
/// person's answer in long polls; a code that expires is replaced by a new one.
enum QRSignInPage {
    static let html = """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Sign in with your phone</title>
        <style>
        body { font: 16px/1.5 system-ui, sans-serif; margin: 0; display: grid; place-items: center; min-height: 100vh; background: #f4f5f7; color: #1d2430; }
        main { background: #fff; border-radius: 16px; padding: 32px; box-shadow: 0 2px 16px #0002; text-align: center; max-width: 420px; }
        h1 { font-size: 22px; margin: 0 0 8px; }
        #qr svg { width: 264px; height: 264px; }
        #status { min-height: 24px; }
        .hint { color: #5b6475; font-size: 14px; }
        </style>
        </head>
        <body>
        <main>
        <h1>Sign in with your phone</h1>
        <p id="status">Preparing a code…</p>
        <div id="qr" data-payload=""></div>
        <p class="hint">Open the app on your enrolled device, scan the code, check that it names this site, and approve.</p>
        </main>
        <script src="/v1/identity/qr/page.js"></script>
        </body>
        </html>

        """

    static let script = """
        "use strict";
        (() => {
          const status = document.getElementById("status");
          const box = document.getElementById("qr");
          const encoder = new TextEncoder();
          const b64url = (buffer) => btoa(String.fromCharCode(...new Uint8Array(buffer)))
            .replace(/\\+/g, "-").replace(/\\//g, "_").replace(/=+$/, "");
          const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
          const post = (path, body) => fetch(path, {
            method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body),
          });

          async function run() {
            // The private key never leaves WebCrypto: only this page can sign with it.
            const keys = await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, false, ["sign"]);
            const raw = await crypto.subtle.exportKey("raw", keys.publicKey);
            const publicKey = b64url(raw);
            const keyHash = b64url(await crypto.subtle.digest("SHA-256", raw));
            for (;;) {
              const created = await post("/v1/identity/qr/sessions", { keyHash });
              if (!created.ok) {
                status.textContent = "No code right now; trying again…";
                await pause(5000);
                continue;
              }
              const session = await created.json();
              box.innerHTML = session.svg;
              box.dataset.payload = session.payload;
              box.dataset.session = session.id;
              status.textContent = "Scan this code with the app on your enrolled device";
              const proof = await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, keys.privateKey,
                encoder.encode(`PWAKIT-QR-REDEEM-V1\\n${session.id}\\n${session.nonce}`));
              const body = { publicKey, signature: b64url(proof) };
              for (;;) {
                const answer = await post(`/v1/identity/qr/sessions/${encodeURIComponent(session.id)}/redeem?wait=20`, body);
                if (answer.status === 202) continue;
                if (answer.status === 429) {
                  await pause(1000 * (Number(answer.headers.get("retry-after")) || 2));
                  continue;
                }
                if (answer.status === 200) {
                  const tokens = await answer.json();
                  sessionStorage.setItem("pwakit.session", JSON.stringify(tokens));
                  box.innerHTML = "";
                  delete box.dataset.payload;
                  status.textContent = `Signed in as ${tokens.user.email}`;
                  document.body.dataset.signedIn = tokens.user.email;
                  return;
                }
                const error = await answer.json().catch(() => null);
                if (error && error.error && error.error.code === "sign_in_denied") {
                  status.textContent = "The sign-in was denied on the device. Here is a new code.";
                  document.body.dataset.denied = "true";
                }
                break;
              }
            }
          }
          run().catch((error) => { status.textContent = `This browser cannot sign in this way: ${error.message}`; });
        })();

        """
}
