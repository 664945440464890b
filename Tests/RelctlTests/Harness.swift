import Foundation
import XCTest
@testable import RelctlCLI
@testable import RelctlCore
@testable import RelctlModel
@testable import RelctlStore
@testable import SQLite

/// Runs relctl commands in-process against a throw-away database, with a
/// fixed clock, captured streams and its own environment.
final class Harness {
    let dir: String
    var db: String { dir + "/relctl.db" }
    var now: Int64
    var env: [String: String]

    init(now: String = "2026-11-29T12:00:00Z") {
        dir = NSTemporaryDirectory() + "relctl-test-" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        self.now = try! TimeInput.parse(now, now: 0, timeZone: "UTC")
        env = ["TZ": "UTC"]
    }

    deinit { try? FileManager.default.removeItem(atPath: dir) }

    struct Result {
        var status: Int32
        var out: String
        var err: String
        var json: Any? { try? JSONSerialization.jsonObject(with: Data(out.utf8)) }
    }

    @discardableResult
    func run(_ args: [String], stdin: [UInt8] = [], terminal: Bool = false, answer: String? = nil, database: String? = nil) -> Result {
        let context = Context(env: env, clock: { [now] in now }, user: "tester", stdin: stdin)
        context.stdinIsTerminal = terminal
        context.readLine = { answer }
        let status = Runner.run(["--db", database ?? db] + args, context: context, tree: Relctl.tree)
        return Result(status: status, out: context.stdout.text, err: context.stderr.text)
    }

    @discardableResult
    func run(_ line: String) -> Result { run(Harness.split(line)) }

    /// Splits a command line as a hint is pasted: on spaces, "double quoted" words whole.
    static func split(_ line: String) -> [String] { PastedHints.split(line) }

    /// Runs and fails the test unless the command succeeded.
    @discardableResult
    func ok(_ line: String, file: StaticString = #filePath, lineNumber: UInt = #line) -> Result {
        let r = run(line)
        XCTAssertEqual(r.status, 0, "\(line) failed: \(r.err)", file: file, line: lineNumber)
        return r
    }

    /// Runs and checks the failure: status, one-line error naming `contains`.
    @discardableResult
    func fails(_ line: String, status: Int32 = 1, _ contains: String, file: StaticString = #filePath, lineNumber: UInt = #line) -> Result {
        let before = try? Data(contentsOf: URL(fileURLWithPath: db))
        let r = run(line)
        XCTAssertEqual(r.status, status, "\(line): \(r.err)", file: file, line: lineNumber)
        XCTAssertTrue(r.err.contains(contains), "\(line): expected '\(contains)' in: \(r.err)", file: file, line: lineNumber)
        XCTAssertTrue(r.err.hasPrefix("relctl: "), "error format: \(r.err)", file: file, line: lineNumber)
        XCTAssertFalse(r.err.contains("Fatal error") || r.err.contains("Stack"), file: file, line: lineNumber)
        let first = r.err.split(separator: "\n").first ?? ""
        XCTAssertFalse(first.isEmpty, file: file, line: lineNumber)
        XCTAssertLessThanOrEqual(r.err.split(separator: "\n").count, 2, "at most an error and a usage line: \(r.err)", file: file, line: lineNumber)
        let after = try? Data(contentsOf: URL(fileURLWithPath: db))
        XCTAssertEqual(before, after, "\(line) changed the database although it failed", file: file, line: lineNumber)
        return r
    }

    /// A project with iOS and Android and a few released versions.
    func sample() {
        ok("init")
        ok("project add shop --name Shop")
        ok("platform add ios --bundle-id com.example.shop --app-store-id 1088280260 --min-os 15.0")
        ok("platform add android --bundle-id com.example.shop")
        ok("version add 1.0 --platform ios --build 100 --released 2026-01-01T00:00:00Z --notes \"First\"")
        ok("version add 1.1 --platform ios --build 110 --released 2026-06-01T00:00:00Z --notes \"Better\"")
        ok("version add 2.0 --platform ios --build 200 --released 2026-11-01T00:00:00Z --notes \"New look\"")
        ok("version add 2.0.0 --platform android --build 200 --released 2026-11-01T00:00:00Z --notes \"New look\"")
        ok("version add 1.9 --platform android --build 190 --released 2026-09-01T00:00:00Z")
    }
}

/// Paths of the package under test.
enum Package {
    static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        while !FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) {
            url.deleteLastPathComponent()
        }
        return url.path
    }()

    /// The relctl executable built alongside the tests.
    static let binary: String = {
        for bundle in Bundle.allBundles {
            let candidate = bundle.bundleURL.deletingLastPathComponent().appendingPathComponent("relctl").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return root + "/.build/debug/relctl"
    }()

    static func read(_ relative: String) -> String {
        (try? String(contentsOfFile: root + "/" + relative, encoding: .utf8)) ?? ""
    }
}

/// Runs a program and captures its output.
struct Proc {
    var status: Int32
    var out: String
    var err: String
    /// Ended by a signal (`status` is then its number).
    var bySignal = false

    @discardableResult
    static func run(_ executable: String, _ args: [String], env: [String: String]? = nil, cwd: String? = nil, stdin: String? = nil) throws -> Proc {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable)
        p.arguments = args
        if let env { p.environment = env }
        if let cwd { p.currentDirectoryURL = URL(fileURLWithPath: cwd) }
        let out = Pipe(), err = Pipe(), input = Pipe()
        p.standardOutput = out; p.standardError = err; p.standardInput = input
        try p.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try? input.fileHandleForWriting.close()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return Proc(status: p.terminationStatus, out: String(decoding: outData, as: UTF8.self), err: String(decoding: errData, as: UTF8.self),
                    bySignal: p.terminationReason == .uncaughtSignal)
    }

    static func which(_ name: String) -> String? {
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let path = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }
}
