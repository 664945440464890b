#!/usr/bin/env python3
"""A local S3 API for relctl's deploy tests: moto's server, with every
request that changes the bucket logged in arrival order, so a test can
assert from the server's side which keys were written, with which headers,
and in what order.

  scripts/s3-test-server.py LOGFILE [FAILFILE]

Prints the port it listens on (127.0.0.1), then serves until killed. Each
PUT, POST and DELETE is one JSON line in LOGFILE: method, path, query,
Content-Type and Cache-Control. While FAILFILE exists and holds a text, a
PUT whose path contains that text gets a 503 (a failed upload to retry), a
DELETE a 403 (a key the credentials may not delete); neither is logged.
"""
import json, os, sys, threading

from moto.server import DomainDispatcherApplication, create_backend_app
from werkzeug.serving import make_server

log_path = sys.argv[1]
fail_path = sys.argv[2] if len(sys.argv) > 2 else None
lock = threading.Lock()
app = DomainDispatcherApplication(create_backend_app)


def logged(environ, start_response):
    method = environ["REQUEST_METHOD"]
    path = environ.get("PATH_INFO", "")
    if method in ("PUT", "POST", "DELETE"):
        if method in ("PUT", "DELETE") and fail_path and os.path.exists(fail_path):
            needle = open(fail_path).read().strip()
            if needle and needle in path and method == "PUT":
                start_response("503 Service Unavailable", [("Content-Type", "application/xml")])
                return [b"<Error><Code>ServiceUnavailable</Code><Message>injected by the test</Message></Error>"]
            if needle and needle in path:
                start_response("403 Forbidden", [("Content-Type", "application/xml")])
                return [b"<Error><Code>AccessDenied</Code><Message>injected by the test</Message></Error>"]
        entry = {"method": method, "path": path, "query": environ.get("QUERY_STRING", ""),
                 "contentType": environ.get("CONTENT_TYPE"), "cacheControl": environ.get("HTTP_CACHE_CONTROL")}
        with lock, open(log_path, "a") as f:
            f.write(json.dumps(entry) + "\n")
    return app(environ, start_response)


server = make_server("127.0.0.1", 0, logged, threaded=True)
print(server.port, flush=True)
server.serve_forever()
