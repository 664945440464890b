import Foundation
import PackagePlugin

/// Regenerates the embedded message catalog whenever a file under
/// templates/messages changes.
@main
struct EmbedTemplates: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [PackagePlugin.Command] {
        let templates = context.package.directoryURL.appending(path: "templates")
        let messages = templates.appending(path: "messages")
        let inputs = try FileManager.default.contentsOfDirectory(at: messages, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "json" }
        let output = context.pluginWorkDirectoryURL.appending(path: "Catalog+Builtin.swift")
        return [.buildCommand(
            displayName: "Embedding message templates",
            executable: try context.tool(named: "embed-templates").url,
            arguments: [templates.path, output.path],
            inputFiles: inputs + [messages],
            outputFiles: [output]
        )]
    }
}
