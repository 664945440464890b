import Foundation
import RelctlClient

// How an app wires RelctlClient, as a command: what an app at PLATFORM
// VERSION [BUILD] shows now, from a control.json URL or file. An app keeps
// one ReleaseControl, calls start() at launch, and puts the state on its
// own screens in onChange (a blocking screen for required and maintenance,
// a dismissable one for optional, with later() and skip()). An app that
// pins keys (--trusted-key, its active key and its backup) obeys only
// documents signed by one of them; a refused one leaves the last good
// state, said here after the reason.
let usage = "usage: relctl-client-sample [--trusted-key KEY]... [--project SLUG] [--storage DIR] URL|FILE PLATFORM VERSION [BUILD]\n"
func fail(_ message: String, _ status: Int32) -> Never {
    FileHandle.standardError.write(Data(message.utf8))
    exit(status)
}
var keys: [String] = [], project: String? = nil, positional: [String] = []
var storage = FileManager.default.temporaryDirectory.appendingPathComponent("relctl-client-sample")
var rest = CommandLine.arguments.dropFirst()
while let arg = rest.popFirst() {
    switch arg {
    case "--trusted-key", "--project", "--storage":
        guard let value = rest.popFirst() else { fail("relctl-client-sample: \(arg) needs a value\n" + usage, 2) }
        if arg == "--trusted-key" { keys.append(value) } else if arg == "--project" { project = value } else { storage = URL(fileURLWithPath: value) }
    default:
        positional.append(arg)
    }
}
guard positional.count >= 3 else { fail(usage, 2) }
let device = ReleaseControl.Device(platform: positional[1], version: positional[2], build: positional.count > 3 ? Int64(positional[3]) : nil,
                                   os: ProcessInfo.processInfo.operatingSystemVersionString.split(separator: " ").dropFirst().first.map(String.init),
                                   languages: Locale.preferredLanguages)
let source = positional[0].contains("://") ? URL(string: positional[0]) : nil

func show(_ state: ReleaseState) {
    if let expired = state.expiredAt {
        print("up to date: the last good document expired at \(Date(timeIntervalSince1970: TimeInterval(expired))), so nothing it says is obeyed")
    } else {
        switch state.kind {
        case .none: print("up to date")
        case .optional, .required:
            let u = state.update!
            print("\(state.kind.rawValue): \(u.title) — \(u.message) [\(u.updateButton)] → \(u.storeURL ?? "no store link")")
        case .maintenance:
            let m = state.maintenance!
            print("maintenance: \(m.title) — \(m.message)")
        }
    }
    print("ask again in \(state.pollIntervalSeconds) s")
}

let control: ReleaseControl
do {
    control = try ReleaseControl(device: device, source: source, storage: storage, trustedKeys: keys, project: project)
} catch {
    fail("relctl-client-sample: \(error)\n", 2)
}
do {
    if source != nil {
        show(try await control.refresh())
    } else {
        show(try control.load(Array(try Data(contentsOf: URL(fileURLWithPath: positional[0])))))
    }
} catch {
    FileHandle.standardError.write(Data("relctl-client-sample: \(error)\n".utf8))
    if let last = control.state() {
        FileHandle.standardError.write(Data("relctl-client-sample: keeping the last good document\n".utf8))
        show(last)
    }
    exit(1)
}
