#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import RelctlCore
import RelctlStore
import RelctlPublish

/// `relctl conformance export DIR`: a versioned suite any client of
/// control.json can run. Each suite is a scenario built with relctl's own
/// commands on a fresh database at a fixed instant; its control.json as
/// publish writes it (`state`), and cases — an install (platform, version,
/// build, device OS, user's languages) at an instant — with the answer the
/// one evaluator gives from the database (ClientAnswer). The instants are
/// the publish instant and both sides of every coming change (deadlines,
/// windows, release delays), so a client that reads the document right
/// decides them without a new download.
enum ConformanceCommand {
    /// Moves when a case's meaning or the answer's shape changes (schema/conformance.schema.json);
    /// new suites or cases alone do not move it.
    static let suiteVersion: Int64 = 3
    /// Every scenario starts here: the suite is the same bytes each time it is exported.
    static let start = "2026-06-01T12:00:00Z"

    static let command: RunnableCommand = RunnableCommand(
        "conformance", abstract: "The conformance suite for clients of control.json.", subcommands: [export],
        examples: [Example("relctl conformance export ./suite", "Write the suite to ./suite.")]
    )

    static let export: RunnableCommand = RunnableCommand(
        "export", abstract: "Write the conformance suite for clients of control.json to DIR.",
        discussion: "Writes DIR/index.json (the suite's version and its suites), per suite DIR/NAME/control.json (the published state) and DIR/NAME/cases.json (installs at instants, with the answer relctl's evaluator gives), and DIR/README.md (how to run it). schema/conformance.schema.json describes the files. Needs no database: every scenario is built on a fresh one, in TMPDIR, and removed after (a killed run's by the next run).",
        arguments: [Argument("DIR", help: "The folder to write (created; files in it replaced; never a folder relctl publishes into).", completion: .directory)],
        examples: [Example("relctl conformance export ./suite", "Write the suite to ./suite.")]
    ) { inv in
        let dir = inv.arg("DIR")!
        // The suite's index.json would replace a publish's (which deploy and verify then refuse), or
        // stand where a publish cut short is to put one. A folder is relctl's by its index.json, its
        // state or its journal.
        let published = dir + "/index.json"
        let sign = [TreeState.name, TreeFiles.journalName].first { FileSystem.kind(of: dir + "/" + $0, followLinks: false) == .file }
            ?? (FileSystem.regularFile(published).map { IndexFormat.author(of: $0, parsed: nil) } == .relctl ? "index.json" : nil)
        if let sign {
            throw RelctlError.failure("\(dir) is a folder relctl publishes into (its \(sign) is relctl's): the suite's files would be mixed with the published ones; nothing was written",
                                      hint: "export the suite into a folder of its own")
        }
        let t0 = Time.parseUTC(start)!
        // The scenarios' databases, made and removed here. A run killed before it
        // removed them is named by its process id: a later run removes its folder.
        let tmp = Spawn.temporaryFolder(inv.context.env)
        removeLeftovers(in: tmp)
        var template = Array("\(tmp)/relctl-conformance.\(getpid()).XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else {
            throw RelctlError.failure("cannot make a temporary folder in \(tmp): \(String(cString: strerror(errno)))", hint: "check it exists and is writable, or set TMPDIR")
        }
        let work = String(cString: made)
        defer { removeWork(work) }
        var suites: [JSON] = [], total = 0
        var files: [(String, [UInt8])] = []
        var tags = Set(Catalog.locales)
        func run(_ name: String, _ db: String, _ commands: [[String]]) throws {
            for line in commands {
                let err = Sink(fd: -1)
                let context = Context(stderr: err, env: ["TZ": "UTC"], clock: { t0 }, user: "conformance")
                guard Runner.run(["--db", db, "-q"] + line, context: context, tree: Relctl.tree) == 0 else {
                    throw RelctlError.failure("scenario \(name): 'relctl \(line.joined(separator: " "))' failed: \(err.text)", hint: "a relctl defect: report it")
                }
            }
        }
        func rendered(_ name: String, _ db: String, fixingSalts: Bool = false) throws -> (ProjectSnapshot, [UInt8]) {
            let store = try Store(path: db, mode: .read, user: "")
            var snapshot = try store.read { try store.zonedSnapshot(try store.requireProject("app")) }
            if fixingSalts { snapshot = ConformanceScenarios.fixedSalts(snapshot, scenario: name) }
            var warnings: [String] = []
            guard let control = ProjectFiles.render(snapshot, at: t0, warnings: &warnings).first(where: { $0.path == "app/control.json" }) else {
                throw RelctlError.failure("scenario \(name): no control.json was rendered", hint: "a relctl defect: report it")
            }
            return (snapshot, control.bytes)
        }
        for scenario in ConformanceScenarios.all {
            let db = "\(work)/\(scenario.name).db"
            try run(scenario.name, db, [["init"], ["project", "add", "app", "--name", "Acme"]] + scenario.commands)
            let (snapshot, bytes) = try rendered(scenario.name, db, fixingSalts: true)
            let control = PublishedFile(path: "app/control.json", bytes: bytes)
            let cases = ConformanceScenarios.cases(snapshot, at: t0)
            total += cases.count
            tags.formUnion(snapshot.publishedLocales + ConformanceScenarios.languageSets(snapshot).flatMap { $0 })
            files.append(("\(scenario.name)/control.json", control.bytes))
            files.append(("\(scenario.name)/cases.json", Array(JSON.array(cases).rendered().utf8)))
            suites.append(.ordered(["cases": .string("\(scenario.name)/cases.json"), "count": .int(Int64(cases.count)),
                                    "description": .string(scenario.description), "name": .string(scenario.name),
                                    "state": .string("\(scenario.name)/control.json")]))
        }
        // The signed steps: one state before a window starts and one after, signed every way a client must refuse.
        let db = "\(work)/\(ConformanceScenarios.signedName).db"
        try run("signed", db, [["init"], ["project", "add", "app", "--name", "Acme"]] + ConformanceScenarios.signedCommands)
        let (open, openBytes) = try rendered("signed", db)
        try run("signed", db, ConformanceSigned.blocking)
        let (blocked, blockedBytes) = try rendered("signed", db)
        let signed = try ConformanceSigned.files(open: openBytes, blocked: blockedBytes, openSnapshot: open, blockedSnapshot: blocked, at: t0)
        files += signed
        let steps = (try? JSONReader.parse(signed.last!.1)).flatMap { if case .array(let a) = $0 { return a.count } else { return nil } } ?? 0
        total += steps
        let buckets = ConformanceScenarios.buckets()
        files.append(("buckets.json", Array(JSON.array(buckets).rendered().utf8)))
        let refusals = ConformanceScenarios.refusals(files)
        files += refusals.files
        files.append(("refusals.json", Array(JSON.array(refusals.cases).rendered().utf8)))
        files.append(("locales.json", Array(ConformanceScenarios.locales(tags).rendered().utf8)))
        let index = JSON.ordered(["buckets": .ordered(["cases": .string("buckets.json"), "count": .int(Int64(buckets.count))]),
                                  "controlSchemaVersion": .int(ControlDocument.schemaVersion), "locales": .string("locales.json"), "publishedAt": .string(start),
                                  "refusals": .ordered(["cases": .string("refusals.json"), "count": .int(Int64(refusals.cases.count))]),
                                  "signed": .ordered(["cases": .string("signed/cases.json"), "count": .int(Int64(steps)), "keys": .string("signed/keys.json")]),
                                  "suiteVersion": .int(suiteVersion), "suites": .array(suites)])
        files.append(("index.json", Array(index.rendered().utf8)))
        files.append(("README.md", Array(ConformanceScenarios.readme.utf8)))
        for folder in [dir] + (ConformanceScenarios.all.map(\.name) + ["signed", "refusals"]).map({ "\(dir)/\($0)" }) where mkdir(folder, 0o755) != 0 && errno != EEXIST {
            throw RelctlError.failure("cannot create \(folder): \(String(cString: strerror(errno)))", hint: "check the path and its permissions")
        }
        // A suite's folder is written into only when it is one: a link there would lead the files elsewhere.
        for name in ConformanceScenarios.all.map(\.name) + ["signed", "refusals"] where FileSystem.kind(of: "\(dir)/\(name)", followLinks: false) != .directory {
            throw RelctlError.failure("\(dir)/\(name) is not a folder (a symbolic link, or a file); nothing was written",
                                      hint: "remove it, or export into another folder")
        }
        for (path, bytes) in files { try FileSystem.writeFile(dir + "/" + path, bytes) }
        inv.info("wrote \(suites.count) suites, \(total) cases, to \(dir)")
    }

    /// A run's folder of scenario databases, and the folder itself.
    static func removeWork(_ work: String) {
        for name in ConformanceScenarios.all.map(\.name) + [ConformanceScenarios.signedName] { for suffix in ["", "-wal", "-shm", "-journal"] { unlink("\(work)/\(name).db\(suffix)") } }
        rmdir(work)
    }

    /// The folders of runs whose process is gone (killed before they removed
    /// theirs): only what a run makes there is removed, so a folder holding
    /// anything else stays.
    static func removeLeftovers(in tmp: String) {
        guard let folder = opendir(tmp) else { return }
        var names: [String] = []
        while let entry = readdir(folder) {
            names.append(withUnsafePointer(to: entry.pointee.d_name) { String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)) })
        }
        closedir(folder)
        for name in names where name.hasPrefix("relctl-conformance.") {
            let parts = name.split(separator: ".")
            guard parts.count == 3, let pid = pid_t(parts[1]), pid > 0, kill(pid, 0) != 0, errno == ESRCH,
                  FileSystem.kind(of: "\(tmp)/\(name)", followLinks: false) == .directory else { continue }
            removeWork("\(tmp)/\(name)")
        }
    }
}
