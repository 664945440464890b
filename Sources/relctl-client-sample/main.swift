import Foundation
import RelctlClient

// How an app wires RelctlClient, as a command: what an app at PLATFORM
// VERSION [BUILD] shows now, from a control.json URL or file. An app keeps
// one ReleaseControl, calls start() at launch, and puts the state on its
// own screens in onChange (a blocking screen for required and maintenance,
// a dismissable one for optional, with later() and skip()).
let args = CommandLine.arguments
guard args.count >= 4 else {
    FileHandle.standardError.write(Data("usage: relctl-client-sample URL|FILE PLATFORM VERSION [BUILD]\n".utf8))
    exit(2)
}
let device = ReleaseControl.Device(platform: args[2], version: args[3], build: args.count > 4 ? Int64(args[4]) : nil,
                                   os: ProcessInfo.processInfo.operatingSystemVersionString.split(separator: " ").dropFirst().first.map(String.init),
                                   languages: Locale.preferredLanguages)
let source = args[1].contains("://") ? URL(string: args[1]) : nil
do {
    let control = try ReleaseControl(device: device, source: source,
                                     storage: FileManager.default.temporaryDirectory.appendingPathComponent("relctl-client-sample"))
    let state: ReleaseState
    if source != nil {
        state = try await control.refresh()
    } else {
        state = try control.load(Array(try Data(contentsOf: URL(fileURLWithPath: args[1]))))
    }
    switch state.kind {
    case .none: print("up to date")
    case .optional, .required:
        let u = state.update!
        print("\(state.kind.rawValue): \(u.title) — \(u.message) [\(u.updateButton)] → \(u.storeURL ?? "no store link")")
    case .maintenance:
        let m = state.maintenance!
        print("maintenance: \(m.title) — \(m.message)")
    }
    print("ask again in \(state.pollIntervalSeconds) s")
} catch {
    FileHandle.standardError.write(Data("relctl-client-sample: \(error)\n".utf8))
    exit(1)
}
