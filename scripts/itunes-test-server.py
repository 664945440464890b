#!/usr/bin/env python3
"""A local iTunes lookup for relctl's store tests: serves recorded answers
per storefront, and logs every request's query, so a test can check what
relctl asked (country always given, lower case) and feed it what the real
lookup sends: an answer, a cached answer older than the release, no result,
a malformed body, an error, a body without end.

  scripts/itunes-test-server.py ANSWERS LOGFILE

ANSWERS is a directory read on each request: for a request with
country=CC, the file CC.json is the body (200); CC.status holds another
status code to answer with; CC.endless makes the answer a stream of bytes
that never ends. No file: the lookup's answer for an unknown app,
{"resultCount":0,"results":[]}. Prints the port (127.0.0.1), then serves
until killed.
"""
import json, os, sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse

answers, log_path = sys.argv[1], sys.argv[2]


class Lookup(BaseHTTPRequestHandler):
    def do_GET(self):
        url = urlparse(self.path)
        query = parse_qs(url.query)
        with open(log_path, "a") as f:
            f.write(json.dumps({"path": url.path, "query": {k: v[0] for k, v in query.items()}}) + "\n")
        country = query.get("country", [""])[0]
        base = os.path.join(answers, os.path.basename(country) or "_")
        if os.path.exists(base + ".endless"):
            self.send_response(200)
            self.send_header("Content-Type", "text/javascript")
            self.end_headers()
            try:
                self.wfile.write(b'{"resultCount":1,"results":[{"version":"')
                while True:
                    self.wfile.write(b"9" * 65536)
            except (BrokenPipeError, ConnectionResetError):
                return
        status, body = 200, b'{\n "resultCount":0,\n "results": []\n}\n'
        if os.path.exists(base + ".status"):
            status, body = int(open(base + ".status").read().strip()), b"error"
        elif os.path.exists(base + ".json"):
            body = open(base + ".json", "rb").read()
        self.send_response(status)
        self.send_header("Content-Type", "text/javascript; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


server = ThreadingHTTPServer(("127.0.0.1", 0), Lookup)
print(server.server_address[1], flush=True)
server.serve_forever()
