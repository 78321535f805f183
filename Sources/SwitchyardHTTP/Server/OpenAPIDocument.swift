import Foundation

/// The OpenAPI 3.1 document of every route Switchyard serves: `Resources/openapi.json`, shipped in the
/// module's resource bundle beside the executable (a test checks it against the router and validates its
/// examples against their schemas).
///
/// The bundle is looked up where SwiftPM puts it, beside the running executable, and never in the build
/// directory: an installation without the bundle fails at start instead of working only on the machine
/// that built it.
public enum OpenAPIDocument {
    /// The directory SwiftPM builds beside the executable; it must be installed next to `switchyard`.
    public static let bundleName = "Switchyard_SwitchyardHTTP.resources"
    /// The document's file inside the bundle.
    static let fileName = "openapi.json"

    /// Why the document could not be read.
    public struct Missing: Error, CustomStringConvertible {
        /// Where it was looked for.
        public var path: String
        /// What went wrong there.
        public var reason: String

        public var description: String {
            "the OpenAPI document \(path) could not be read (\(reason)); install the \(OpenAPIDocument.bundleName) "
                + "directory built with switchyard in the same directory as the switchyard executable"
        }
    }

    /// The document's bytes, read once.
    private static let loaded = Result { () throws(Missing) -> Data in try read() }

    /// The document as served at `/openapi.json`; throws ``Missing`` when the resource is not installed.
    public static func load() throws(Missing) -> Data {
        try loaded.get()
    }

    /// Reads the document from the resource bundle in `directory` (the running executable's by default).
    static func read(besideExecutableIn directory: URL = Bundle.main.bundleURL) throws(Missing) -> Data {
        let file = directory.appendingPathComponent(bundleName).appendingPathComponent(fileName)
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            throw Missing(path: file.path, reason: "missing or unreadable")
        }
        guard (try? JSONSerialization.jsonObject(with: data)) is [String: Any] else {
            throw Missing(path: file.path, reason: "not a JSON object")
        }
        return data
    }
}
