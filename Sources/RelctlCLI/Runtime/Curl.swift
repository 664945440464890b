#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import RelctlCore
import RelctlPublish

/// HTTP requests through curl (as `store fetch` asks the iTunes lookup):
/// HTTP/2 over TLS with its nghttp2, which APNs requires, one connection
/// reused for many requests, and the system's trust store (CURL_CA_BUNDLE
/// points it elsewhere, as the tests' local servers need).
///
/// Secrets never reach a command line another user could read in `ps`:
/// every request is written to a config file in a folder of the owner's
/// alone, with its headers and body, and removed when curl is done.
struct Curl {
    let path: String
    let env: [String: String]

    /// curl on PATH, new enough for what `send` asks of it (%{exitcode} and
    /// %{errormsg} in --write-out: 7.75) and built with HTTP/2, which APNs requires.
    static func find(_ env: [String: String]) throws -> Curl {
        guard let path = Spawn.find("curl", env: env) else {
            throw RelctlError.failure("curl is not installed (or not on PATH): relctl sends pushes through it", hint: "install it (apt-get install curl)")
        }
        guard let version = Spawn.capture(path, ["-q", "--version"], env: env, limit: 64 << 10), version.status == 0 else {
            throw RelctlError.failure("cannot run \(path) --version", hint: "check that curl runs: curl --version")
        }
        let text = String(decoding: version.stdout, as: UTF8.self)
        let number = text.split(separator: " ").dropFirst().first.map { $0.split(separator: ".").compactMap { Int($0) } } ?? []
        guard number.count >= 2, (number[0], number[1]) >= (7, 75) else {
            throw RelctlError.failure("\(path) is older than curl 7.75, which relctl needs to send pushes (\(text.split(separator: "\n").first ?? ""))",
                                      hint: "install a newer curl (Debian 12, Ubuntu 22.04 and later have one)")
        }
        guard text.split(separator: "\n").contains(where: { $0.hasPrefix("Features:") && $0.split(separator: " ").contains("HTTP2") }) else {
            throw RelctlError.failure("\(path) was built without HTTP/2, which APNs requires", hint: "install a curl built with nghttp2 (Debian's curl is)")
        }
        return Curl(path: path, env: env)
    }

    /// Answers larger than this are cut off: the services answer in a few hundred bytes.
    static let answerLimit = 64 << 10

    /// Sends `requests` (POST), up to 20 at once, and returns their answers
    /// in the same order; a request that got no answer has status 0 and curl's error.
    /// `maxTime`: the seconds each request may take in all.
    func send(_ requests: [HTTPRequest], maxTime: Int64 = 20) throws -> [HTTPResponse] {
        guard !requests.isEmpty else { return [] }
        // curl's config holds the services' tokens: a Ctrl-C while it runs ends relctl once the folder is gone.
        return try StopSignals.holding("sending \(requests.count == 1 ? "a request" : "\(requests.count) requests") to \(requests[0].url.split(separator: "/", maxSplits: 3, omittingEmptySubsequences: false).prefix(3).joined(separator: "/")); curl's folder is removed") {
            try sendFromFolder(requests, maxTime: maxTime)
        }
    }

    private func sendFromFolder(_ requests: [HTTPRequest], maxTime: Int64) throws -> [HTTPResponse] {
        var template = Array((Spawn.temporaryFolder(env) + "/relctl-push.XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw RelctlError.failure("cannot make a private folder in \(Spawn.temporaryFolder(env)) for the requests", hint: "check TMPDIR is a writable folder")
        }
        let dir = String(cString: made)
        defer {
            for i in requests.indices { for kind in ["body", "out", "head"] { unlink("\(dir)/\(kind)\(i)") } }
            unlink(dir + "/config")
            rmdir(dir)
        }
        // Every value is checked where it comes from; a line break here would start another option all the same.
        func quoted(_ s: String) throws -> String {
            guard !s.unicodeScalars.contains(where: { $0.value < 32 || $0.value == 127 }) else {
                throw RelctlError.failure("a request holds a control character, which curl's config cannot carry", hint: "check the push options for a stray line break")
            }
            return "\"" + s.flatMap { $0 == "\\" || $0 == "\"" ? ["\\", $0] : [$0] } + "\""
        }
        var config = ""
        for (i, r) in requests.enumerated() {
            try FileSystem.writeFile("\(dir)/body\(i)", r.body)
            if i > 0 { config += "next\n" }
            config += "url = \(try quoted(r.url))\n"
            // HTTP/2 over TLS, as APNs requires (ALPN; curl's default with nghttp2, which `find` checks).
            config += "http2\n"
            config += "request = \"POST\"\n"
            for (name, value) in r.headers { config += "header = \(try quoted("\(name): \(value)"))\n" }
            config += "data-binary = \(try quoted("@\(dir)/body\(i)"))\n"
            config += "output = \(try quoted("\(dir)/out\(i)"))\n"
            config += "dump-header = \(try quoted("\(dir)/head\(i)"))\n"
            config += "max-filesize = \(Curl.answerLimit)\nmax-time = \(maxTime)\nconnect-timeout = \(min(10, maxTime))\nproto = \"=http,https\"\n"
            // Which request a line is for: with --parallel, lines come as transfers end.
            config += "write-out = \"\(i) %{http_code} %{exitcode} %{errormsg}\\n\"\n"
        }
        try FileSystem.writeFile(dir + "/config", Array(config.utf8))
        // -q first: no ~/.curlrc changes what is sent or where.
        // --no-progress-meter: with --parallel, --silent alone still draws one on stderr.
        let args = ["-q", "--silent", "--no-progress-meter", "--show-error", "--config", dir + "/config"] + (requests.count > 1 ? ["--parallel", "--parallel-max", "20"] : [])
        guard let got = Spawn.capture(path, args, env: env, limit: 256 * requests.count + 4096) else {
            throw RelctlError.failure("cannot start \(path)", hint: "check that curl runs: curl --version")
        }
        // Ended by a stop passed on to it (StopSignals), curl says nothing of why.
        let unanswered = got.status < 0 && StopSignals.pending != 0 ? "stopped (\(StopSignals.name(StopSignals.pending))) before an answer"
            : "curl gave no answer (\(got.lastErrorLine))"
        var answers = requests.map { _ in HTTPResponse(status: 0, error: unanswered) }
        for line in String(decoding: got.stdout, as: UTF8.self).split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: false)
            guard parts.count >= 3, let i = Int(parts[0]), answers.indices.contains(i), let status = Int(parts[1]), let exit = Int(parts[2]) else { continue }
            let message = parts.count > 3 ? String(parts[3]) : ""
            let body = (try? FileSystem.readFile("\(dir)/out\(i)", limit: Curl.answerLimit)) ?? []
            let head = (try? FileSystem.readFile("\(dir)/head\(i)", limit: Curl.answerLimit)) ?? []
            var headers: [String: String] = [:]
            for h in String(decoding: head, as: UTF8.self).split(whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
                guard let colon = h.firstIndex(of: ":") else { continue }
                headers[h[..<colon].lowercased()] = String(h[h.index(after: colon)...]).trimmingSpaces()
            }
            // An answer counts as given even when curl ended badly after it (a timeout, a cut-off body).
            answers[i] = HTTPResponse(status: status, headers: headers, body: body,
                                      error: exit == 0 ? nil : (message.isEmpty ? "curl error \(exit)" : message))
        }
        return answers
    }
}
