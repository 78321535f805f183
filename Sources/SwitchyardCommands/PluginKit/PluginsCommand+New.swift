import ArgumentParser
import Foundation

extension PluginsCommand {
    /// `switchyard plugins new <Name> [--language swift|c] [--dir DIR] [--id ID] [--sdk PATH|URL]`: writes a
    /// plugin package outside this repository from the templates.
    struct New: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write a new plugin package: connector files, unit tests, a scenario and a README.",
            discussion: """
                Swift: a package depending on the Switchyard package (--sdk: a source checkout's path or a git \
                URL; default: the checkout this executable was built from) for ProviderKit and ProviderTestSupport. \
                C: a source file, build and test scripts, and the C SDK in sdk/. Either builds as written and \
                passes `switchyard plugins check` with its scenario.
                """)

        enum Language: String, ExpressibleByArgument, CaseIterable {
            case swift, c
        }

        @Argument(help: "The provider's name in UpperCamelCase, e.g. AcmePay.")
        var name: String

        @Option(help: "swift or c.")
        var language: Language = .swift

        @Option(help: "Where to write the package (default: ./<Name>); it must not exist or be empty.")
        var dir: String?

        @Option(help: "The plugin id (default: the name in lowercase with dashes, e.g. acme-pay).")
        var id: String?

        @Option(help: "Swift only: the Switchyard package, a source checkout's path or a git URL.")
        var sdk: String?

        func validate() throws {
            guard name.range(of: "^[A-Z][A-Za-z0-9]{0,39}$", options: .regularExpression) != nil else {
                throw ValidationError(
                    "the name must be UpperCamelCase letters and digits (e.g. AcmePay), 1 to 40 characters")
            }
            guard pluginID.range(of: "^[a-z0-9][a-z0-9-]{0,62}$", options: .regularExpression) != nil else {
                throw ValidationError("--id must be lowercase letters, digits and dashes (e.g. acme-pay)")
            }
        }

        /// The plugin id.
        var pluginID: String { id ?? Self.kebab(name) }

        func run() throws {
            let directory = dir ?? name
            if let existing = try? FileManager.default.contentsOfDirectory(atPath: directory), !existing.isEmpty {
                throw ValidationError("\(directory) exists and is not empty")
            }
            var values = ["__Name__": name, "__name__": name.lowercased(), "__id__": pluginID]
            if language == .swift {
                let (dependency, identity) = try sdkDependency()
                values["__SDK_DEPENDENCY__"] = dependency
                values["__SDK_PACKAGE__"] = identity
            }
            let files = SDKFiles.files(under: "templates/\(language.rawValue)/")
            guard !files.isEmpty else {
                throw ValidationError("this executable carries no \(language.rawValue) template")
            }
            do {
                for (path, data) in files.sorted(by: { $0.key < $1.key }) {
                    let target = directory + "/" + Self.fill(path, values)
                    let text = String(data: data, encoding: .utf8)
                    try SDKFiles.write(text.map { Data(Self.fill($0, values).utf8) } ?? data, to: target)
                    if path.hasSuffix(".sh") { chmod(target, 0o755) }
                }
                if language == .c { try SDKFiles.writeSDK(into: directory + "/sdk") }
            } catch let error as CertificationInputError {
                throw ValidationError(error.description)
            }
            let library = "lib\(name)Plugin.so"
            let build =
                language == .swift
                ? "swift build && swift test\n  switchyard plugins check .build/debug/\(library) --scenario scenario.json"
                : "./build.sh && ./test.sh\n  switchyard plugins check \(library) --scenario scenario.json"
            print(
                """
                wrote the \(language.rawValue) plugin \(pluginID) to \(directory). Next:
                  cd \(directory)
                  \(build)
                """)
        }

        /// The `.package(…)` line and the package identity of the Switchyard package.
        private func sdkDependency() throws -> (String, String) {
            if let sdk,
                sdk.hasPrefix("https://") || sdk.hasPrefix("http://") || sdk.hasPrefix("git@")
                    || sdk.hasPrefix("ssh://") || sdk.hasPrefix("file://")
            {
                let last = (sdk as NSString).lastPathComponent
                let identity = (last.hasSuffix(".git") ? String(last.dropLast(4)) : last).lowercased()
                return (#".package(url: "\#(sdk)", branch: "main")"#, identity)
            }
            guard let path = sdk.map({ URL(fileURLWithPath: $0).standardizedFileURL.path }) ?? Self.sourceCheckout()
            else {
                throw ValidationError(
                    "no Switchyard source checkout was found beside this executable: pass --sdk with a checkout's path or a git URL"
                )
            }
            guard FileManager.default.fileExists(atPath: path + "/Sources/ProviderKit") else {
                throw ValidationError("\(path) is not a Switchyard source checkout (no Sources/ProviderKit)")
            }
            return (#".package(path: "\#(path)")"#, (path as NSString).lastPathComponent.lowercased())
        }

        /// The checkout this executable was built from (`<checkout>/.build/…/switchyard`), if it is there.
        static func sourceCheckout() -> String? {
            let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? ""
            var url = URL(fileURLWithPath: executable).deletingLastPathComponent()
            while url.path != "/" {
                if FileManager.default.fileExists(atPath: url.appendingPathComponent("Sources/ProviderKit").path),
                    FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path)
                {
                    return url.path
                }
                url.deleteLastPathComponent()
            }
            return nil
        }

        static func fill(_ text: String, _ values: [String: String]) -> String {
            values.keys.sorted { $0.count > $1.count }.reduce(text) {
                $0.replacingOccurrences(of: $1, with: values[$1]!)
            }
        }

        /// `AcmePay` → `acme-pay`.
        static func kebab(_ name: String) -> String {
            var out = ""
            for (index, character) in name.enumerated() {
                if character.isUppercase && index > 0 { out.append("-") }
                out.append(Character(character.lowercased()))
            }
            return out
        }
    }
}
