#!/usr/bin/env python3
"""A sync client of the Recruitment Job Board Data API in Python, standard library only.

One pass: every page of each list (following next_page), with Basic credentials on
every request. Run it against `jobboard-kit serve --verdict-exit on`, stop the fake,
and the fake's exit code says whether the client kept the API's rules
(docs/verdict.md). `--mistake no-credentials` sends one request without credentials,
to see the fake turn it into exit 1.

    python3 examples/python/sync.py --url http://127.0.0.1:4010 [--user jobboard --password jobboard]
"""
import argparse
import base64
import json
import sys
import urllib.error
import urllib.parse
import urllib.request

LISTS = ["candidates", "applications", "timesheets", "marketing"]


def get(url, auth):
    request = urllib.request.Request(url, headers={"Authorization": auth} if auth else {})
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, json.loads(answer.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, None


def walk(base, path, auth):
    """Every record of a list: page after page until a page has no next_page."""
    records, url = [], base + path
    while url:
        status, page = get(url, auth)
        if status != 200:
            raise SystemExit(f"{url} answered {status}: try again in a later window")
        records.extend(page["data"])
        next_page = page.get("next_page")
        # the links carry the fake's origin; keep our own in case they differ
        url = base + urllib.parse.urlsplit(next_page)._replace(scheme="", netloc="").geturl() if isinstance(next_page, str) and next_page else None
    return records


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", required=True)
    parser.add_argument("--user", default="jobboard")
    parser.add_argument("--password", default="jobboard")
    parser.add_argument("--mistake", choices=["no-credentials"])
    options = parser.parse_args()
    base = options.url.rstrip("/")
    auth = "Basic " + base64.b64encode(f"{options.user}:{options.password}".encode()).decode()
    copy = {name: walk(base, f"/api/v1/{name}/list", auth) for name in LISTS}
    if options.mistake == "no-credentials":
        get(base + "/api/v1/metrics/list", None)
    print(json.dumps({name: len(records) for name, records in copy.items()}))


if __name__ == "__main__":
    sys.exit(main())
