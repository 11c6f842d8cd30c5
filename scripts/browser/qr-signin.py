#!/usr/bin/env python3
"""Drives headless Chromium (Debian's `chromium`) through the QR sign-in page over the DevTools
pipe, with nothing but the standard library.

Usage: qr-signin.py URL SCREENSHOT.png [TIMEOUT_SECONDS]

Prints, one per line and flushed:
  PAYLOAD <text>        the code's text, as the page holds it
  SCREENSHOT <path>     a PNG of the page showing the code (for a QR reader to decode)
  SIGNED_IN <email>     when the page says it is signed in
  FAILED <why>          on any failure (and exits 1)
"""
import base64
import fcntl
import json
import os
import select
import shutil
import subprocess
import sys
import tempfile
import time


def fail(why):
    print(f"FAILED {why}", flush=True)
    sys.exit(1)


def main():
    url, png = sys.argv[1], sys.argv[2]
    timeout = float(sys.argv[3]) if len(sys.argv) > 3 else 90
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if not browser:
        fail("no chromium on PATH")
    # The DevTools pipe: Chromium reads commands on fd 3 and writes answers on fd 4, NUL-separated.
    commands_read, commands_write = os.pipe()
    answers_read, answers_write = os.pipe()
    high_read = fcntl.fcntl(commands_read, fcntl.F_DUPFD, 10)
    high_write = fcntl.fcntl(answers_write, fcntl.F_DUPFD, 10)

    def place_pipe():
        os.dup2(high_read, 3)
        os.dup2(high_write, 4)

    profile = tempfile.mkdtemp(prefix="pwakit-chromium-")
    process = subprocess.Popen(
        [browser, "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
         "--remote-debugging-pipe", f"--user-data-dir={profile}", "--window-size=720,820", "about:blank"],
        preexec_fn=place_pipe, close_fds=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for fd in (commands_read, answers_write, high_read, high_write):
        os.close(fd)
    writer = os.fdopen(commands_write, "wb", buffering=0)
    buffered = b""
    next_id = 0
    deadline = time.time() + timeout

    def receive():
        nonlocal buffered
        while b"\0" not in buffered:
            ready, _, _ = select.select([answers_read], [], [], max(0.0, deadline - time.time()))
            if not ready:
                fail("Chromium did not answer in time")
            chunk = os.read(answers_read, 1 << 20)
            if not chunk:
                fail("Chromium closed the DevTools pipe")
            buffered += chunk
        message, buffered = buffered.split(b"\0", 1)
        return json.loads(message)

    def call(method, params=None, session=None):
        nonlocal next_id
        next_id += 1
        message = {"id": next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        writer.write(json.dumps(message).encode() + b"\0")
        while True:
            answer = receive()
            if answer.get("id") == next_id:
                if "error" in answer:
                    fail(f"{method}: {answer['error']}")
                return answer.get("result", {})

    try:
        target = call("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        call("Page.enable", session=session)
        call("Page.navigate", {"url": url}, session=session)

        def evaluate(expression):
            result = call("Runtime.evaluate", {"expression": expression, "returnByValue": True}, session=session)
            return result.get("result", {}).get("value")

        payload = ""
        while not payload and time.time() < deadline:
            payload = evaluate("(document.getElementById('qr') || {dataset: {}}).dataset.payload || ''")
            if not payload:
                time.sleep(0.2)
        if not payload:
            fail(f"the page showed no code: {evaluate('document.body && document.body.innerText')}")
        print(f"PAYLOAD {payload}", flush=True)
        shot = call("Page.captureScreenshot", {"format": "png"}, session=session)["data"]
        with open(png, "wb") as out:
            out.write(base64.b64decode(shot))
        print(f"SCREENSHOT {png}", flush=True)
        while time.time() < deadline:
            email = evaluate("document.body.dataset.signedIn || ''")
            if email:
                print(f"SIGNED_IN {email}", flush=True)
                return
            time.sleep(0.2)
        fail(f"the page did not sign in: {evaluate('document.body.innerText')}")
    finally:
        process.kill()
        process.wait()
        shutil.rmtree(profile, ignore_errors=True)


if __name__ == "__main__":
    main()
