#!/usr/bin/env python3
"""Writes a copy of Server/openapi.yaml with examples naming one CI run's app and releases.

Usage: server-ci-spec.py SPEC OUT APP_ID RELEASE_PUBLISHED RELEASE_TO_PUBLISH USER_EMAIL USER_PASSWORD SPARE_KEY_ID SPARE_CREDENTIAL_ID

The examples let schemathesis reach success paths it cannot invent: a signed release to
publish, a bundle hash and blobs the server holds, the app they belong to, a new app's id no
earlier run has taken, a seeded user's sign-in (its examples run before fuzzed logins fill
the address throttle), and a spare key and credential for the revocation operations (never the
ones the other operations use).
"""
import base64
import hashlib
import json
import sys

import yaml


def main() -> None:
    spec_path, out_path, app, published_path, next_path, email, password, spare_key, spare_credential = sys.argv[1:10]
    with open(spec_path) as f:
        spec = yaml.safe_load(f)
    with open(published_path) as f:
        published = json.load(f)
    with open(next_path) as f:
        upcoming = json.load(f)
    manifest = json.loads(base64.b64decode(published["manifest"]))
    bundle_hash = hashlib.sha256(base64.b64decode(published["manifest"])).hexdigest()

    parameters = spec["components"]["parameters"]
    parameters["AppId"]["example"] = app
    parameters["BundleHash"]["example"] = bundle_hash
    paths = spec["paths"]
    for parameter in paths["/v1/apps/{appId}/releases/latest"]["get"]["parameters"]:
        parameter["example"] = {"channel": "stable", "current": "0.9.0"}[parameter["name"]]
    for parameter in paths["/v1/apps/{appId}/channels/{channel}/releases/{version}/rollout"]["parameters"]:
        if "name" in parameter:
            parameter["example"] = {"channel": "stable", "version": "1.0.0"}[parameter["name"]]

    def body(path: str, method: str) -> dict:
        return paths[path][method]["requestBody"]["content"]["application/json"]

    for parameter in paths["/v1/apps/{appId}/keys/{keyId}"]["parameters"]:
        if parameter.get("name") == "keyId":
            parameter["example"] = spare_key
    for parameter in paths["/v1/apps/{appId}/credentials/{credentialId}"]["parameters"]:
        if parameter.get("name") == "credentialId":
            parameter["example"] = spare_credential
    body("/v1/apps/{appId}/publishers", "post")["example"] = {"email": email}

    blob = paths["/v1/blobs/{sha256}"]["parameters"][0]
    blob["example"] = manifest["files"][0]["sha256"]
    body("/v1/auth/login", "post")["example"] = {"email": email, "password": password}
    body("/v1/apps/{appId}/releases", "post")["example"] = {
        "manifest": upcoming["manifest"], "keyId": upcoming["keyId"], "signature": upcoming["signature"],
    }
    body("/v1/launch/codes", "post")["example"] = {"appId": app, "bundleHash": bundle_hash}
    # NB: an id no earlier run can have taken, so creating an app succeeds even on a reused database.
    body("/v1/apps", "post")["example"] = {
        "id": f"{app}-created", "name": "Created in CI", "description": "Created by schemathesis",
        "entryPath": "index.html", "permissions": ["haptics"], "channels": ["stable", "beta"],
    }
    with open(out_path, "w") as f:
        json.dump(spec, f, indent=1)


if __name__ == "__main__":
    main()
