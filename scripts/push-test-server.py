#!/usr/bin/env python3
"""A local APNs, Google OAuth 2 token endpoint and FCM HTTP v1 for relctl's
push tests: HTTP/2 over TLS like the real services, checking every request
the way they do (provider tokens, service-account assertions, headers,
payloads) and answering refusals with the real services' bodies, so a test
can see relctl sign, send, retry and stop as it would against Apple and
Google, and read from the server's side what arrived and how often.

  scripts/push-test-server.py DIR

Prints the port it listens on (127.0.0.1), then serves until killed: TLS
with DIR/cert.pem and DIR/key.pem, ALPN "h2" only, one thread per
connection. Endpoints:

  POST /3/device/<token>                      APNs (provider token, ES256)
  POST /token                                 OAuth 2 (jwt-bearer, RS256)
  POST /v1/projects/<project>/messages:send   FCM HTTP v1 (a /token token)

Read at each request, so a test may change them between commands:
  apns.json        {"keyId", "teamId", "topic"}; apns-public.pem (EC P-256)
  fcm.json         {"clientEmail", "privateKeyId", "projectId", "audience"};
                   fcm-public.pem (RSA)
  unregistered     APNs device tokens (hex, one a line) answered 410
  mode             words, one a line: apns-expired-once, apns-toomany,
                   apns-down, fcm-unauthenticated-once, fcm-quota,
                   fcm-unavailable, oauth-refuse ("-once" words are spent
                   for the life of this process)
  clock-offset     seconds added to the server's clock (token ages, the
                   20-minute provider-token rule, access-token expiry)

Every request is one JSON line appended to DIR/requests.jsonl: service,
at, method, path, status, reason, headers, body, jwt, http2 (and detail:
why it was refused). A client that does not negotiate h2 gets HTTP/1.1
505, logged with http2 false.
"""
import base64, json, os, re, socket, ssl, sys, threading, time, traceback, uuid
from urllib.parse import parse_qs

try:
    import h2.config, h2.connection, h2.events, h2.exceptions
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec, padding
    from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
except ImportError:
    # The python3 first on PATH (pyenv's, say) may lack h2; Debian's has it
    # (python3-h2, python3-cryptography). Nothing was printed yet: hand over.
    system = "/usr/bin/python3"
    if os.path.exists(system) and os.path.realpath(sys.executable) != os.path.realpath(system):
        os.execv(system, [system, os.path.abspath(__file__)] + sys.argv[1:])
    raise

DIR = sys.argv[1]
MAX_BODY = 64 * 1024            # any endpoint: larger bodies are refused with 413
APNS_MAX_PAYLOAD = 4096         # APNs' limit for a notification's payload
APNS_TOKEN_MAX_AGE = 3600       # a provider token older than an hour is expired
APNS_TOKEN_MAX_AHEAD = 60       # clock skew tolerated for a token from the future
APNS_TOKEN_CHURN = 1200         # at most one new provider token per 20 minutes
OAUTH_SKEW = 300                # an assertion's iat within 5 minutes of now
OAUTH_LIFETIME = 3600           # the longest an assertion may live (exp - iat)
ACCESS_TOKEN_LIFETIME = 3599
FCM_SCOPE = "https://www.googleapis.com/auth/firebase.messaging"
JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer"
FORM = "application/x-www-form-urlencoded"

DEVICE_TOKEN = re.compile(r"[0-9A-Fa-f]{64,200}")
FCM_PATH = re.compile(r"/v1/projects/([^/]+)/messages:send")
FCM_TOPIC = re.compile(r"[a-zA-Z0-9\-_.~%]{1,900}")
BASE64URL = re.compile(r"[A-Za-z0-9_-]*")
FCM_ERROR_TYPE = "type.googleapis.com/google.firebase.fcm.v1.FcmError"
FCM_MESSAGE_FIELDS = {"name", "data", "notification", "android", "webpush", "apns",
                      "fcm_options", "token", "topic", "condition"}

# State shared by the connection threads, all behind one lock.
lock = threading.RLock()
spent_once = set()              # "-once" mode words already used
apns_kids = {}                  # kid -> {"accepted": set of JWTs, "last_new": time}
access_tokens = {}              # access token issued by /token -> expiry
counters = {"issued": 0, "sent": 0}
log_lock = threading.Lock()


# ---------------------------------------------------------------- DIR files

def path_in_dir(name):
    return os.path.join(DIR, name)


def read_json(name):
    with open(path_in_dir(name)) as f:
        return json.load(f)


def read_lines(name):
    try:
        with open(path_in_dir(name)) as f:
            return [line.strip() for line in f if line.strip()]
    except FileNotFoundError:
        return []


def mode_words():
    return set(read_lines("mode"))


def take_once(word, words):
    """True the first time a '-once' word is present; spent for good then."""
    with lock:
        if word in words and word not in spent_once:
            spent_once.add(word)
            return True
    return False


def now():
    """The server's clock: a test shifts it with clock-offset to step over
    the 20-minute and one-hour rules without waiting."""
    lines = read_lines("clock-offset")
    return time.time() + (float(lines[0]) if lines else 0.0)


def public_key(name):
    with open(path_in_dir(name), "rb") as f:
        return serialization.load_pem_public_key(f.read())


# ---------------------------------------------------------------- requests and replies

class Request:
    """One request as it arrived: pseudo-headers apart, names lower-cased."""

    def __init__(self, headers, http2=True):
        self.pseudo, self.headers = {}, {}
        for name, value in headers:
            name = name.lower()
            if name.startswith(":"):
                self.pseudo[name] = value
            elif name in self.headers:
                self.headers[name] += ", " + value
            else:
                self.headers[name] = value
        self.method = self.pseudo.get(":method", "")
        self.path = self.pseudo.get(":path", "")
        self.route = self.path.split("?", 1)[0]
        self.body = bytearray()
        self.body_size = 0
        self.jwt = None             # {"header", "claims"} of the JWT it carried, for the log
        self.http2 = http2

    def add_body(self, data):
        # Count everything, keep no more than the limit: a huge body costs no memory.
        self.body_size += len(data)
        if self.body_size <= MAX_BODY:
            self.body += data

    @property
    def too_big(self):
        return self.body_size > MAX_BODY

    def content_type(self):
        return self.headers.get("content-type", "").split(";", 1)[0].strip().lower()

    def logged_body(self):
        if self.too_big:
            return "<%d bytes, over the %d-byte limit>" % (self.body_size, MAX_BODY)
        # JSON first: curl --data labels any body a form, a JSON payload too.
        text = bytes(self.body).decode("utf-8", errors="replace")
        try:
            return json.loads(text)
        except ValueError:
            pass
        return form_fields(text) if self.content_type() == FORM else text


class Reply:
    def __init__(self, status, body=b"", headers=None, reason=None, detail=None):
        self.status, self.body, self.reason, self.detail = status, body, reason, detail
        self.headers = list(headers or [])


class Refused(Exception):
    """Raised by a check with the reply the real service would give."""

    def __init__(self, reply):
        super().__init__(reply.reason)
        self.reply = reply


def json_reply(status, obj, reason=None, detail=None, headers=None):
    body = json.dumps(obj).encode()
    return Reply(status, body, [("content-type", "application/json; charset=utf-8")] + list(headers or []),
                 reason, detail)


def form_fields(text):
    """The form as a dict: one value a field, a list where a field repeats."""
    fields = parse_qs(text, keep_blank_values=True)
    return {k: v[0] if len(v) == 1 else v for k, v in fields.items()}


# ---------------------------------------------------------------- JWT

class BadJWT(Exception):
    pass


def b64url_decode(part):
    # JWS uses base64url without padding: anything else is a client bug to catch.
    if not BASE64URL.fullmatch(part) or len(part) % 4 == 1:
        raise BadJWT("not base64url without padding")
    return base64.urlsafe_b64decode(part + "=" * (-len(part) % 4))


def decode_jwt(token):
    """(header, claims, signing input, signature); raises BadJWT."""
    parts = token.split(".")
    if len(parts) != 3:
        raise BadJWT("a JWT has three dot-separated parts, this one %d" % len(parts))
    try:
        header = json.loads(b64url_decode(parts[0]))
        claims = json.loads(b64url_decode(parts[1]))
    except (ValueError, UnicodeDecodeError) as error:
        raise BadJWT("header or claims are not JSON: %s" % error)
    if not isinstance(header, dict) or not isinstance(claims, dict):
        raise BadJWT("header and claims must be JSON objects")
    return header, claims, (parts[0] + "." + parts[1]).encode(), b64url_decode(parts[2])


def is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


def es256_valid(pem, signing_input, signature):
    # JWS ES256 signs with the raw 64-byte r||s, not DER: convert to verify.
    if len(signature) != 64:
        return False
    r, s = int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big")
    try:
        public_key(pem).verify(encode_dss_signature(r, s), signing_input, ec.ECDSA(hashes.SHA256()))
        return True
    except InvalidSignature:
        return False


def rs256_valid(pem, signing_input, signature):
    try:
        public_key(pem).verify(signature, signing_input, padding.PKCS1v15(), hashes.SHA256())
        return True
    except InvalidSignature:
        return False


# ---------------------------------------------------------------- APNs

def apns_refuse(status, reason, detail, **extra):
    raise Refused(json_reply(status, dict({"reason": reason}, **extra), reason, detail))


def handle_apns(req):
    # APNs echoes the client's apns-id, or makes one; errors carry it too.
    apns_id = req.headers.get("apns-id", "")
    try:
        apns_id = str(uuid.UUID(apns_id))
    except ValueError:
        apns_id = str(uuid.uuid4())
    try:
        reply = apns_checks(req)
    except Refused as refused:
        reply = refused.reply
    reply.headers.append(("apns-id", apns_id))
    return reply


def apns_checks(req):
    config, words = read_json("apns.json"), mode_words()
    # An answer that is slow to come: a client stopped while it waits.
    if "apns-slow" in words:
        time.sleep(3)
    if "apns-down" in words:
        apns_refuse(503, "ServiceUnavailable", "mode apns-down")
    if "apns-toomany" in words:
        apns_refuse(429, "TooManyRequests", "mode apns-toomany")
    if take_once("apns-expired-once", words):
        forget_token_churn(config["keyId"])
        apns_refuse(403, "ExpiredProviderToken", "mode apns-expired-once")
    if req.method != "POST":
        apns_refuse(405, "MethodNotAllowed", "APNs takes POST only")
    device = req.route[len("/3/device/"):]
    if not DEVICE_TOKEN.fullmatch(device) or len(device) % 2:
        apns_refuse(400, "BadDeviceToken", "device token must be hex, even length, 64-200 characters")
    jwt = apns_provider_token(req, config)
    apns_token_churn(jwt, config["keyId"])
    apns_headers(req, config)
    apns_payload(req)
    if device.lower() in {line.lower() for line in read_lines("unregistered")}:
        apns_refuse(410, "Unregistered", "device token listed in unregistered", timestamp=int(now() * 1000))
    return Reply(200)


def apns_provider_token(req, config):
    """The authorization header's JWT, checked as APNs does; returns it."""
    scheme, _, jwt = req.headers.get("authorization", "").strip().partition(" ")
    jwt = jwt.strip()
    if scheme.lower() != "bearer" or not jwt:
        apns_refuse(403, "MissingProviderToken", "no 'authorization: bearer <JWT>'")
    try:
        header, claims, signing_input, signature = decode_jwt(jwt)
    except BadJWT as error:
        apns_refuse(403, "InvalidProviderToken", str(error))
    req.jwt = {"header": header, "claims": claims}
    if header.get("alg") != "ES256":
        apns_refuse(403, "InvalidProviderToken", "alg must be ES256")
    if header.get("kid") != config["keyId"]:
        apns_refuse(403, "InvalidProviderToken", "kid must be the key id %s" % config["keyId"])
    if claims.get("iss") != config["teamId"]:
        apns_refuse(403, "InvalidProviderToken", "iss must be the team id %s" % config["teamId"])
    if not is_int(claims.get("iat")):
        apns_refuse(403, "InvalidProviderToken", "iat must be an integer")
    if not es256_valid("apns-public.pem", signing_input, signature):
        apns_refuse(403, "InvalidProviderToken", "signature does not verify (raw r||s, SHA-256)")
    age = now() - claims["iat"]
    if age > APNS_TOKEN_MAX_AGE or -age > APNS_TOKEN_MAX_AHEAD:
        # A refreshed token is the right answer to this: let it through the churn rule.
        forget_token_churn(header["kid"])
        apns_refuse(403, "ExpiredProviderToken", "iat is %d s from now" % -age)
    return jwt


def apns_token_churn(jwt, kid):
    """APNs refuses a new provider token within 20 minutes of the last new one:
    a client must keep its token, not sign one per request or per run."""
    at = now()
    with lock:
        record = apns_kids.setdefault(kid, {"accepted": set(), "last_new": None})
        if jwt in record["accepted"]:
            return
        if record["last_new"] is not None and at - record["last_new"] < APNS_TOKEN_CHURN:
            apns_refuse(429, "TooManyProviderTokenUpdates",
                        "new token %.0f s after the previous new one" % (at - record["last_new"]))
        record["accepted"].add(jwt)
        record["last_new"] = at


def forget_token_churn(kid):
    # After ExpiredProviderToken a new token is due, whenever the last one came.
    with lock:
        if kid in apns_kids:
            apns_kids[kid]["last_new"] = None


def apns_headers(req, config):
    topic = req.headers.get("apns-topic")
    if topic is None:
        apns_refuse(400, "MissingTopic", "no apns-topic")
    if topic != config["topic"]:
        apns_refuse(400, "TopicDisallowed", "apns-topic must be %s" % config["topic"])
    if req.headers.get("apns-push-type") != "background":
        apns_refuse(400, "InvalidPushType", "apns-push-type must be background")
    if req.headers.get("apns-priority") != "5":
        apns_refuse(400, "BadPriority", "a background push has apns-priority 5")
    expiration = req.headers.get("apns-expiration")
    if expiration is not None and not re.fullmatch(r"[0-9]+", expiration):
        apns_refuse(400, "BadExpirationDate", "apns-expiration must be a whole number")


def apns_payload(req):
    """A background push: content-available 1, nothing the user would see."""
    body = bytes(req.body)
    if len(body) > APNS_MAX_PAYLOAD:
        apns_refuse(413, "PayloadTooLarge", "payload is %d bytes, over %d" % (len(body), APNS_MAX_PAYLOAD))
    if not body.strip():
        apns_refuse(400, "PayloadEmpty", "empty body")
    try:
        payload = json.loads(body)
    except ValueError:
        apns_refuse(400, "BadPayload", "payload is not JSON")
    aps = payload.get("aps") if isinstance(payload, dict) else None
    if not isinstance(aps, dict):
        apns_refuse(400, "BadPayload", "payload must be an object with an aps object")
    if not (is_int(aps.get("content-available")) and aps["content-available"] == 1):
        apns_refuse(400, "BadPayload", "aps content-available must be 1")
    for key in ("alert", "sound", "badge"):
        if key in aps:
            apns_refuse(400, "BadPayload", "a background push has no aps %s" % key)


# ---------------------------------------------------------------- OAuth 2

def oauth_refuse(why):
    raise Refused(json_reply(400, {"error": "invalid_grant", "error_description": why}, "invalid_grant", why))


def handle_oauth(req):
    try:
        return oauth_checks(req)
    except Refused as refused:
        return refused.reply


def oauth_checks(req):
    config = read_json("fcm.json")
    if "oauth-refuse" in mode_words():
        oauth_refuse("Invalid JWT Signature.")
    if req.method != "POST":
        oauth_refuse("the token endpoint takes POST")
    if req.content_type() != FORM:
        oauth_refuse("content-type must be %s" % FORM)
    form = form_fields(bytes(req.body).decode("utf-8", errors="replace"))
    if form.get("grant_type") != JWT_BEARER:
        oauth_refuse("grant_type must be %s" % JWT_BEARER)
    if not isinstance(form.get("assertion"), str):
        oauth_refuse("one assertion field is needed")
    oauth_assertion(req, form["assertion"], config)
    return json_reply(200, {"access_token": issue_access_token(), "expires_in": ACCESS_TOKEN_LIFETIME,
                            "token_type": "Bearer"})


def oauth_assertion(req, assertion, config):
    """The service account's signed assertion, checked as Google does."""
    try:
        header, claims, signing_input, signature = decode_jwt(assertion)
    except BadJWT as error:
        oauth_refuse(str(error))
    req.jwt = {"header": header, "claims": claims}
    if header.get("alg") != "RS256":
        oauth_refuse("alg must be RS256")
    if "kid" in header and header["kid"] != config["privateKeyId"]:
        oauth_refuse("kid is not the service account's private key id")
    if claims.get("iss") != config["clientEmail"]:
        oauth_refuse("iss must be the service account's client email")
    scope = claims.get("scope")
    if not isinstance(scope, str) or FCM_SCOPE not in scope.split():
        oauth_refuse("scope must include %s" % FCM_SCOPE)
    if claims.get("aud") != config["audience"]:
        oauth_refuse("aud must be %s" % config["audience"])
    iat, exp = claims.get("iat"), claims.get("exp")
    if not is_int(iat) or not is_int(exp):
        oauth_refuse("iat and exp must be integers")
    if not 0 < exp - iat <= OAUTH_LIFETIME:
        oauth_refuse("exp must be after iat, at most %d s" % OAUTH_LIFETIME)
    at = now()
    if abs(iat - at) > OAUTH_SKEW or exp <= at:
        oauth_refuse("Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe.")
    if not rs256_valid("fcm-public.pem", signing_input, signature):
        oauth_refuse("Invalid JWT Signature.")


def issue_access_token():
    with lock:
        counters["issued"] += 1
        token = "mock-access-%d" % counters["issued"]
        access_tokens[token] = now() + ACCESS_TOKEN_LIFETIME
    return token


# ---------------------------------------------------------------- FCM HTTP v1

def fcm_refuse(code, status, message, error_code=None, headers=None):
    error = {"code": code, "message": message, "status": status}
    if error_code:
        error["details"] = [{"@type": FCM_ERROR_TYPE, "errorCode": error_code}]
    raise Refused(json_reply(code, {"error": error}, error_code or status, message, headers))


def fcm_invalid(message):
    fcm_refuse(400, "INVALID_ARGUMENT", message, "INVALID_ARGUMENT")


def handle_fcm(req):
    try:
        return fcm_checks(req)
    except Refused as refused:
        return refused.reply


def fcm_checks(req):
    config, words = read_json("fcm.json"), mode_words()
    match = FCM_PATH.fullmatch(req.route)
    if not match or match.group(1) != config["projectId"] or req.method != "POST":
        fcm_refuse(404, "NOT_FOUND", "Requested entity was not found.")
    if "fcm-unavailable" in words:
        fcm_refuse(503, "UNAVAILABLE", "The service is currently unavailable.", "UNAVAILABLE")
    fcm_authenticate(req, words)
    if "fcm-quota" in words:
        fcm_refuse(429, "RESOURCE_EXHAUSTED", "Quota exceeded for quota metric 'Send requests'.",
                   "QUOTA_EXCEEDED", [("retry-after", "30")])
    fcm_message(req)
    with lock:
        counters["sent"] += 1
        name = "projects/%s/messages/%d" % (config["projectId"], counters["sent"])
    return json_reply(200, {"name": name})


def fcm_authenticate(req, words):
    """The bearer must be an unexpired token /token issued."""
    scheme, _, token = req.headers.get("authorization", "").strip().partition(" ")
    token = token.strip()
    with lock:
        valid = scheme.lower() == "bearer" and access_tokens.get(token, 0) > now()
        if take_once("fcm-unauthenticated-once", words):
            access_tokens.pop(token, None)  # as if revoked: the client must get another
            valid = False
    if not valid:
        fcm_refuse(401, "UNAUTHENTICATED", "Request had invalid authentication credentials.")


def fcm_message(req):
    """A data message, as FCM v1 would take it for a background push."""
    try:
        body = json.loads(bytes(req.body))
    except ValueError:
        fcm_invalid("Invalid JSON payload received.")
    if not isinstance(body, dict) or not isinstance(body.get("message"), dict):
        fcm_invalid("The body must be {\"message\": {...}}.")
    for key in body:
        if key not in ("message", "validate_only"):
            fcm_invalid("Invalid JSON payload received. Unknown name \"%s\": Cannot find field." % key)
    message = body["message"]
    for key in message:
        if key not in FCM_MESSAGE_FIELDS:
            fcm_invalid("Invalid JSON payload received. Unknown name \"%s\" at 'message': Cannot find field." % key)
    fcm_target(message)
    if "notification" in message:
        fcm_invalid("A background push carries no notification.")
    data = message.get("data", {})
    if not isinstance(data, dict) or not all(isinstance(v, str) for v in data.values()):
        fcm_invalid("Invalid value at 'message.data': every value must be a string.")
    fcm_android(message.get("android"))
    fcm_apns(message.get("apns"))


def fcm_target(message):
    targets = [key for key in ("topic", "token", "condition") if key in message]
    if len(targets) != 1:
        fcm_invalid("Exactly one of topic, token or condition is required, not %s." % (targets or "none"))
    value = message[targets[0]]
    if not isinstance(value, str) or not value:
        fcm_invalid("Invalid value at 'message.%s'." % targets[0])
    if targets[0] == "topic" and not FCM_TOPIC.fullmatch(value):
        fcm_invalid("Invalid topic name %r." % value)


def fcm_android(android):
    if android is None:
        return
    if not isinstance(android, dict):
        fcm_invalid("Invalid value at 'message.android'.")
    priority = android.get("priority")
    if priority is not None and (not isinstance(priority, str) or priority.lower() not in ("normal", "high")):
        fcm_invalid("Invalid value at 'message.android.priority' (%r)." % priority)


def fcm_apns(apns):
    if apns is None:
        return
    if not isinstance(apns, dict):
        fcm_invalid("Invalid value at 'message.apns'.")
    headers = apns.get("headers", {})
    if not isinstance(headers, dict) or not all(isinstance(v, str) for v in headers.values()):
        fcm_invalid("Invalid value at 'message.apns.headers': every value must be a string.")
    # Apple refuses priority 10 for a push with nothing to show; FCM passes that on.
    if headers.get("apns-priority", "5") != "5":
        fcm_invalid("Invalid APNs priority for a data message: apns-priority must be 5.")
    if headers.get("apns-push-type", "background") != "background":
        fcm_invalid("apns-push-type must be background for a data message.")
    if "payload" in apns:
        payload = apns["payload"]
        aps = payload.get("aps") if isinstance(payload, dict) else None
        if not isinstance(aps, dict) or not (is_int(aps.get("content-available"))
                                             and aps["content-available"] == 1):
            fcm_invalid("message.apns.payload.aps must have content-available 1.")


# ---------------------------------------------------------------- dispatch and log

def handle_other(req):
    return json_reply(404, {"error": "no such endpoint on the push test server"}, "not found")


def route(req):
    if req.route.startswith("/3/device/"):
        return "apns", handle_apns
    if req.route == "/token":
        return "oauth", handle_oauth
    if req.route.startswith("/v1/projects/"):
        return "fcm", handle_fcm
    return "other", handle_other


def too_big_reply(service):
    why = "body over %d bytes" % MAX_BODY
    if service == "apns":
        return json_reply(413, {"reason": "PayloadTooLarge"}, "PayloadTooLarge", why,
                          [("apns-id", str(uuid.uuid4()))])
    if service == "fcm":
        return json_reply(413, {"error": {"code": 413, "message": why, "status": "INVALID_ARGUMENT"}},
                          "INVALID_ARGUMENT", why)
    return json_reply(413, {"error": "invalid_request", "error_description": why}, "invalid_request", why)


def answer(req):
    service, handler = route(req)
    if req.too_big:
        reply = too_big_reply(service)
    else:
        try:
            reply = handler(req)
        except Exception:
            # A broken test setup (a missing apns.json, say) shows as a 500 in the log.
            traceback.print_exc()
            reply = json_reply(500, {"error": "push test server failed"}, "internal", traceback.format_exc())
    log(service, req, reply)
    return reply


def log(service, req, reply):
    entry = {"service": service, "at": time.time(), "method": req.method, "path": req.path,
             "status": reply.status, "reason": reply.reason, "headers": req.headers,
             "body": req.logged_body(), "jwt": req.jwt, "http2": req.http2}
    if reply.detail:
        entry["detail"] = reply.detail
    with log_lock, open(path_in_dir("requests.jsonl"), "a") as f:
        f.write(json.dumps(entry) + "\n")
        f.flush()


# ---------------------------------------------------------------- HTTP/2

class Closed(Exception):
    pass


class Connection:
    """One client connection: its streams may come one after another or at once."""

    def __init__(self, sock):
        self.sock = sock
        self.h2 = h2.connection.H2Connection(
            h2.config.H2Configuration(client_side=False, header_encoding="utf-8"))
        self.requests = {}          # stream id -> Request still arriving
        self.outgoing = {}          # stream id -> body bytes waiting for flow-control window

    def serve(self):
        self.h2.initiate_connection()
        self.flush()
        try:
            while True:
                data = self.sock.recv(65536)
                if not data:
                    return
                for event in self.h2.receive_data(data):
                    self.on(event)
                self.send_bodies()
                self.flush()
        except Closed:
            self.flush()

    def on(self, event):
        if isinstance(event, h2.events.RequestReceived):
            self.requests[event.stream_id] = Request(event.headers)
        elif isinstance(event, h2.events.DataReceived):
            # Give the window back at once, so a large upload never stalls.
            self.h2.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
            if event.stream_id in self.requests:
                self.requests[event.stream_id].add_body(event.data)
        elif isinstance(event, h2.events.StreamEnded):
            req = self.requests.pop(event.stream_id, None)
            if req is not None:
                self.respond(event.stream_id, answer(req))
        elif isinstance(event, h2.events.StreamReset):
            self.requests.pop(event.stream_id, None)
            self.outgoing.pop(event.stream_id, None)
        elif isinstance(event, h2.events.ConnectionTerminated):
            raise Closed()

    def respond(self, stream_id, reply):
        headers = [(":status", str(reply.status))] + reply.headers
        headers.append(("content-length", str(len(reply.body))))
        self.h2.send_headers(stream_id, headers, end_stream=not reply.body)
        if reply.body:
            self.outgoing[stream_id] = reply.body

    def send_bodies(self):
        """Send what the peer's flow-control windows allow; the rest waits for
        its WINDOW_UPDATE (the next pass of serve)."""
        for stream_id, body in list(self.outgoing.items()):
            try:
                while body:
                    size = min(len(body), self.h2.max_outbound_frame_size,
                               self.h2.local_flow_control_window(stream_id))
                    if size <= 0:
                        break
                    self.h2.send_data(stream_id, body[:size])
                    body = body[size:]
                if body:
                    self.outgoing[stream_id] = body
                else:
                    self.h2.end_stream(stream_id)
                    del self.outgoing[stream_id]
            except h2.exceptions.StreamClosedError:
                self.outgoing.pop(stream_id, None)

    def flush(self):
        data = self.h2.data_to_send()
        if data:
            self.sock.sendall(data)


def refuse_http1(sock):
    """A client that did not negotiate h2: HTTP/1.1 505, logged with http2 false,
    so a test sees a client that fell back rather than a silent hang."""
    head = b""
    while b"\r\n\r\n" not in head and len(head) < MAX_BODY:
        chunk = sock.recv(65536)
        if not chunk:
            break
        head += chunk
    lines = head.split(b"\r\n\r\n", 1)[0].decode("latin-1").split("\r\n")
    request_line = lines[0].split(" ")
    if len(request_line) < 2:
        return
    fields = [tuple(part.strip() for part in line.split(":", 1)) for line in lines[1:] if ":" in line]
    req = Request([(":method", request_line[0]), (":path", request_line[1])] + fields, http2=False)
    reply = json_reply(505, {"error": "HTTP/2 only"}, "http2 required", "ALPN did not select h2")
    log(route(req)[0], req, reply)
    sock.sendall(b"HTTP/1.1 505 HTTP Version Not Supported\r\ncontent-type: application/json\r\n"
                 b"content-length: %d\r\nconnection: close\r\n\r\n" % len(reply.body) + reply.body)


def handle_connection(raw, context):
    try:
        raw.settimeout(10)  # a client that never finishes its handshake frees the thread
        sock = context.wrap_socket(raw, server_side=True)
        sock.settimeout(None)
        if sock.selected_alpn_protocol() == "h2":
            Connection(sock).serve()
        else:
            refuse_http1(sock)
        sock.close()
    except (OSError, h2.exceptions.ProtocolError) as error:
        print("push-test-server: connection closed: %r" % error, file=sys.stderr)
    except Exception:
        traceback.print_exc()
    finally:
        raw.close()


def main():
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(path_in_dir("cert.pem"), path_in_dir("key.pem"))
    context.set_alpn_protocols(["h2"])
    listener = socket.create_server(("127.0.0.1", 0), backlog=64)
    print(listener.getsockname()[1], flush=True)
    while True:
        raw, _ = listener.accept()
        threading.Thread(target=handle_connection, args=(raw, context), daemon=True).start()


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        pass
