// Compiles templates/messages/*.json into a Swift source file so the
// message catalog travels inside the relctl binary. Runs at build time only.
import Foundation

let args = CommandLine.arguments
guard args.count == 3 else {
    FileHandle.standardError.write("usage: embed-templates TEMPLATES_DIR OUTPUT.swift\n".data(using: .utf8)!)
    exit(2)
}
let dir = URL(fileURLWithPath: args[1]).appendingPathComponent("messages")
let files = try FileManager.default.contentsOfDirectory(at: dir, includingPropertiesForKeys: nil)
    .filter { $0.pathExtension == "json" }
    .sorted { $0.lastPathComponent < $1.lastPathComponent }

func literal(_ s: String) -> String {
    var out = "\""
    for scalar in s.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        default:
            if scalar.value < 0x20 { out += "\\u{\(String(scalar.value, radix: 16))}" } else { out.unicodeScalars.append(scalar) }
        }
    }
    return out + "\""
}

var source = "// Generated from templates/messages by the EmbedTemplates plugin. Do not edit.\n"
source += "extension Catalog {\n    static let builtin: [String: [String: String]] = [\n"
for file in files {
    let locale = file.deletingPathExtension().lastPathComponent
    let data = try Data(contentsOf: file)
    guard let object = try JSONSerialization.jsonObject(with: data) as? [String: String] else {
        FileHandle.standardError.write("\(file.path): expected an object of strings\n".data(using: .utf8)!)
        exit(1)
    }
    source += "        \(literal(locale)): [\n"
    for key in object.keys.sorted() {
        source += "            \(literal(key)): \(literal(object[key]!)),\n"
    }
    source += "        ],\n"
}
source += "    ]\n}\n"
try source.write(toFile: args[2], atomically: true, encoding: .utf8)
