#!/usr/bin/env python3
"""Prints what schemathesis tried: per operation, the number of requests and their statuses.

Usage: server-ci-summary.py SPEC REPORT_DIR ENGINE   (reads the HAR file schemathesis wrote)
"""
import collections
import glob
import json
import os
import re
import sys
import urllib.parse

import yaml


def main() -> None:
    spec_path, report_dir, engine = sys.argv[1:4]
    with open(spec_path) as f:
        spec = yaml.safe_load(f)
    templates = []
    for path, item in spec["paths"].items():
        pattern = re.compile("^" + re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(path)) + "$")
        for method, operation in item.items():
            if isinstance(operation, dict) and "responses" in operation:
                templates.append((method.upper(), pattern, operation.get("operationId", path)))

    entries = []
    for har in sorted(glob.glob(os.path.join(report_dir, "*.har")) + glob.glob(os.path.join(report_dir, "har*"))):
        with open(har) as f:
            entries += json.load(f)["log"]["entries"]
    if not entries:
        print(f"server-ci: summary ({engine}): no HAR entries in {report_dir}")
        return

    statuses = collections.defaultdict(collections.Counter)
    for entry in entries:
        method = entry["request"]["method"].upper()
        path = urllib.parse.urlsplit(entry["request"]["url"]).path
        name = next(
            (op for m, pattern, op in templates if m == method and pattern.match(path)), f"{method} (not in the spec)")
        statuses[name][entry["response"]["status"]] += 1

    total = sum(sum(c.values()) for c in statuses.values())
    overall = collections.Counter()
    for counter in statuses.values():
        overall.update(counter)
    specified = {op for _, _, op in templates}
    tried = len(specified & set(statuses))
    print(f"server-ci: summary ({engine}): {total} requests; {tried} of {len(templates)} operations, "
          "plus methods the spec does not list")
    for name in sorted(statuses):
        counter = statuses[name]
        detail = ", ".join(f"{status}×{count}" for status, count in sorted(counter.items()))
        print(f"server-ci:   {name:24} {sum(counter.values()):5}  {detail}")
    missing = sorted(specified - set(statuses))
    if missing:
        print(f"server-ci:   not exercised: {', '.join(missing)}")
    success = sorted(name for name, counter in statuses.items() if any(200 <= s < 300 for s in counter))
    print(f"server-ci:   operations with a 2xx answer: {len(success)} of {len(templates)}")
    print(f"server-ci:   statuses overall: " + ", ".join(f"{s}×{c}" for s, c in sorted(overall.items())))


if __name__ == "__main__":
    main()
